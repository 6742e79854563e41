import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from './test-db.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-main-'));
let child: ChildProcess | undefined;
// On PostgreSQL the server gets a database of its own, empty but for the schema.
let database: Awaited<ReturnType<typeof createTestDb>> | undefined;

beforeAll(async () => {
  if (process.env.DATABASE_URL) database = await createTestDb();
});

afterAll(async () => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts main.ts and resolves with everything it printed once it listens. */
function start(): Promise<{ output: string; port: number }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    if (database?.url) env.DATABASE_URL = database.url;
    else delete env.DATABASE_URL;
    delete env.ADMIN_PASSWORD;
    delete env.ADMIN_USERNAME;
    child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'packages/server/src/main.ts'], { cwd: root, env });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no listen within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ output, port: Number(m[1]) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

describe('main', () => {
  it('starts on an empty database, prints the first password once, serves, and stops gracefully', async () => {
    const { output, port } = await start();
    const password = /Password: (\S+)/.exec(output)?.[1];
    expect(password).toBeDefined();
    expect(output).toContain('Username: super.admin');

    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ok' });
    const login = await fetch(`http://127.0.0.1:${port}/gdb-importer/v1/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'super.admin', password }),
    });
    expect(login.status).toBe(200);

    const exited = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));
    child?.kill('SIGTERM');
    expect(await exited).toBe(0);

    const again = await start();
    expect(again.output).not.toContain('Password:');
    const exitedAgain = new Promise<number | null>((resolve) => child?.on('exit', (code) => resolve(code)));
    child?.kill('SIGTERM');
    expect(await exitedAgain).toBe(0);
  }, 150_000);
});
