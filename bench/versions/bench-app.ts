// The app the version benches call: a fresh database (PGlite, or a new one on BENCH_DATABASE_URL),
// its services without HTTP, and a super-admin to act as; `close` removes all of it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../packages/server/src/app.ts';
import type { AuthContext } from '../../packages/server/src/platform/auth/access-control.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { createTestDb } from '../../packages/server/test/test-db.ts';

/** A built app on a database of its own, with a super-admin named bench.{name}. */
export async function benchApp(name: string) {
  if (process.env.BENCH_DATABASE_URL) process.env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const testDb = await createTestDb();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gdb-bench-${name}-`));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', TFA_REQUIRED: 'none' });
  const { app, services, ctx } = await buildApp(config, { db: testDb.db, web: false });
  const boss = await services.users.create({
    firstName: 'bench',
    lastName: name,
    userName: `bench.${name}`,
    email: `bench.${name}@example.test`,
    roles: ['super-admin'],
    password: 'Bench!Passw0rd',
  });
  const auth: AuthContext = { userId: boss.id, sessionId: 'bench', userName: boss.user_name, roles: ['super-admin'] };
  const close = async () => {
    await app.close();
    await testDb.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { services, ctx, boss, auth, close };
}
