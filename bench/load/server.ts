// The load bench's server: seeded, started as a process of its own on a free 127.0.0.1 port, its
// memory and CPU read from /proc, stopped by its process id (PostgreSQL's bench database dropped).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnServer, stopChild } from '../../e2e/support/server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const NODE_ARGS = ['--no-node-snapshot', '--import', 'tsx'];

export interface BenchServer {
  baseUrl: string;
  pid: number;
  engine: 'PGlite (embedded)' | 'PostgreSQL';
  /** Resident memory of the server process now, in MiB. */
  rssMiB: () => number;
  /** CPU seconds the server process has used so far. */
  cpuSeconds: () => number;
  /** Of those, the seconds of its main thread, the one answering requests. */
  mainThreadCpuSeconds: () => number;
  /** CPU seconds of the separate import worker process (BENCH_WORKER=1), 0 without one. */
  workerCpuSeconds: () => number;
  /** The server's latest output, and how it ended if it did. */
  output: () => string;
  stop: () => Promise<void>;
}

function seed(env: NodeJS.ProcessEnv): string | undefined {
  const r = spawnSync(process.execPath, [...NODE_ARGS, 'bench/load/seed.ts'], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`seed failed:\n${r.stdout}\n${r.stderr}`);
  const last = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { databaseUrl?: string | null };
  return last.databaseUrl ?? undefined;
}

const rssOf = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};
const cpuOf = (pid: number, thread = '') => {
  const fields = fs.readFileSync(`/proc/${pid}${thread}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/**
 * The allocator settings a deployment on Linux with glibc is advised to give the server
 * (docs/operations.md, "Memory after large files"), unless the caller's environment sets them:
 * the recorded figures were taken with them.
 */
const DEPLOYMENT_SETTINGS = { MALLOC_MMAP_THRESHOLD_: '1048576', GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' };

/** The import worker process (`npm run worker`) beside the server, its output dropped. */
function spawnWorker(env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [...NODE_ARGS, 'packages/server/src/worker.ts'], {
    cwd: root,
    env,
    stdio: 'ignore',
  });
}

/** CPU seconds of every process of this command name this user can read (0 when none runs here). */
function cpuSecondsOfCommand(command: string): number {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes(` (${command}) `)) total += cpuOf(Number(entry));
    } catch {
      // The process ended while it was read.
    }
  }
  return total;
}

/** CPU seconds of every PostgreSQL process this user can read (0 when none runs here). */
export const postgresCpuSeconds = () => cpuSecondsOfCommand('postgres');
/** CPU seconds of RabbitMQ's Erlang machine (0 when it does not run here). */
export const rabbitCpuSeconds = () => cpuSecondsOfCommand('beam.smp');

async function waitReady(child: ChildProcess, baseUrl: string, log: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server stopped (exit ${child.exitCode}):\n${log()}`);
    if (
      await fetch(`${baseUrl}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`The server did not become ready in 120 s:\n${log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Seeds `users` bench users and starts the server with these extra settings; BENCH_CPU_PROF names
 * a folder for a CPU profile of the server (written when it stops).
 */
export async function startBenchServer(users: number, settings: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-bench-load-'));
  const databaseUrl = seed({ ...process.env, DATA_DIR: dataDir, BENCH_USERS: String(users) });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...DEPLOYMENT_SETTINGS,
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: 'warn',
    TFA_REQUIRED: 'none',
    ...settings,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const separateWorker = process.env.BENCH_WORKER === '1' && Boolean(databaseUrl);
  if (separateWorker) env.IMPORT_CONCURRENCY = '0';
  const { child, output } = spawnServer(prof, env);
  const pid = child.pid ?? 0;
  const worker = separateWorker ? spawnWorker({ ...env, IMPORT_CONCURRENCY: settings.IMPORT_CONCURRENCY ?? '4' }) : null;
  const stop = async () => {
    if (worker) await stopChild(worker);
    await stopChild(child);
    if (databaseUrl) {
      spawnSync(process.execPath, [...NODE_ARGS, 'e2e/support/seed.ts', '--drop', databaseUrl], { cwd: root, env: process.env });
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(child, baseUrl, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl,
    pid,
    engine: databaseUrl ? 'PostgreSQL' : 'PGlite (embedded)',
    rssMiB: () => rssOf(pid),
    cpuSeconds: () => cpuOf(pid),
    mainThreadCpuSeconds: () => cpuOf(pid, `/task/${pid}`),
    workerCpuSeconds: () => (worker?.pid && worker.exitCode === null ? cpuOf(worker.pid) : 0),
    output: () =>
      `${output()}${child.exitCode !== null || child.signalCode ? `\n(exited: ${child.exitCode ?? child.signalCode})` : ''}`,
    stop,
  };
}
