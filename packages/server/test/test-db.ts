import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { type Db, migrateToLatest, openDb } from '../src/platform/db/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A dump of a migrated, empty PGlite data directory, or '' on PostgreSQL. */
    pgliteSnapshot: string;
  }
}

/**
 * A fresh, migrated database for one test file: PGlite in memory by default, or a new
 * database on the server named by DATABASE_URL (dropped again by `drop`).
 */
export async function createTestDb(): Promise<{ db: Db; url: string | undefined; drop: () => Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    const db = await openDb({ loadDataDir: await migratedSnapshot() });
    await migrateToLatest(db);
    return { db, url: undefined, drop: () => db.close() };
  }
  const name = `gdb_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString() });
  await migrateToLatest(db);
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** The migrated database the server tests' global setup dumped, when there is one (not in benches). */
async function migratedSnapshot(): Promise<Blob | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  let file: string | undefined;
  try {
    file = inject('pgliteSnapshot');
  } catch {
    return undefined; // a process of its own (a seed script), outside the test runner
  }
  return file ? new Blob([fs.readFileSync(file)]) : undefined;
}
