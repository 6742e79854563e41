import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDb } from '../src/platform/db/index.ts';
import './test-db.ts';

/**
 * Migrates one embedded database before the server tests and dumps it to a file: each test file's
 * fresh database starts from that dump, instead of creating a cluster and migrating it again.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteSnapshot', '');
    return () => {};
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-pglite-'));
  const file = path.join(dir, 'migrated.tar');
  const db = await openDb({});
  await migrateToLatest(db);
  const dump = await db.pglite?.pg.dumpDataDir('none');
  await db.close();
  if (!dump) throw new Error('no PGlite dump');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
