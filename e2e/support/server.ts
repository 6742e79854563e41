// A server instance of its own for a spec that needs other settings than the shared one (two-factor
// for everyone, mail through a test SMTP server, a fresh install without the demo): seeded with
// the test users, on a free 127.0.0.1 port, stopped by its PID.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const NODE_ARGS = ['--no-node-snapshot', '--import', 'tsx'];

export interface SpecServer {
  baseUrl: string;
  /** The server's output so far (for failure reports). */
  output: () => string;
  stop: () => Promise<void>;
}

function seed(env: NodeJS.ProcessEnv, args: string[]): string | undefined {
  const r = spawnSync(process.execPath, [...NODE_ARGS, 'e2e/support/seed.ts', ...args], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`seed failed:\n${r.stdout}\n${r.stderr}`);
  const parsed: unknown = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
  return typeof parsed === 'object' && parsed !== null && 'databaseUrl' in parsed && typeof parsed.databaseUrl === 'string'
    ? parsed.databaseUrl
    : undefined;
}

/** A port nothing listens on at 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Stops a child process by its id (SIGTERM, then SIGKILL after 10 s) and answers once it exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (child.exitCode !== null || pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    process.kill(pid, 'SIGTERM');
  });
}

/** Starts the server (`packages/server/src/main.ts`, with these node flags) keeping the end of its output. */
export function spawnServer(nodeFlags: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [...NODE_ARGS, ...nodeFlags, 'packages/server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => log };
}

export interface SpecServerOptions {
  /**
   * True: a fresh install's database, only the test users in it (the admin and the user sharing
   * a group badge), and the server started with DEMO_DATA=false; otherwise the suite's seed.
   */
  bare?: boolean;
}

/** Starts a seeded server with these extra settings and waits until it is ready. */
export async function startSpecServer(settings: Record<string, string>, options: SpecServerOptions = {}): Promise<SpecServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-e2e-spec-'));
  const databaseUrl = seed({ ...process.env, DATA_DIR: dataDir }, options.bare ? ['--bare'] : []);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'warn',
    ...(options.bare ? { DEMO_DATA: 'false' } : {}),
    ...settings,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const { child, output } = spawnServer([], env);

  const stop = async () => {
    await stopChild(child);
    if (databaseUrl) {
      spawnSync(process.execPath, [...NODE_ARGS, 'e2e/support/seed.ts', '--drop', databaseUrl], { cwd: root, env: process.env });
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The server stopped (exit ${child.exitCode}):\n${output()}`);
    }
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not become ready in 90 s:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, output, stop };
}
