// Parse worker boot: how long a parse worker takes from its start to its first answer (a two-row
// CSV file) and how much it adds to the process's resident memory, four workers one after the
// other, as the pool boots them. `bundle` runs the code the pool runs (the parse worker bundled
// once per process); `sources` loads the TypeScript sources through tsx in the worker, as the pool
// did before, for comparison. Each mode in a process of its own.
//   node --no-node-snapshot --expose-gc --import tsx bench/import/parse-worker-boot.ts [bundle|sources]
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { parseWorkerCode } from '../../packages/server/src/modules/uploads/parsing/parse-worker-code.ts';

const WORKERS = 4;
const ENTRY = path.resolve(import.meta.dirname, '../../packages/server/src/modules/uploads/parsing/parse.worker.ts');
const SOURCES = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((api) => { api.register(); return import(workerData.entry); });
`;

const rssMiB = () => process.memoryUsage.rss() / (1024 * 1024);

async function workerFor(mode: string): Promise<{ code: string; options: WorkerOptions; buildMs: number }> {
  if (mode === 'sources') {
    const api = path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs');
    const workerData = { tsx: pathToFileURL(api).href, entry: pathToFileURL(ENTRY).href };
    return { code: SOURCES, options: { eval: true, execArgv: [], workerData }, buildMs: 0 };
  }
  const t0 = performance.now();
  const code = await parseWorkerCode();
  return { code, options: { eval: true, execArgv: [] }, buildMs: Math.round(performance.now() - t0) };
}

/** Starts a worker and waits for its answer to a small file: the time it took, in ms. */
async function boot(code: string, options: WorkerOptions): Promise<{ worker: Worker; ms: number }> {
  const t0 = performance.now();
  const worker = new Worker(code, options);
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage({ bytes: new TextEncoder().encode('a,b\n1,2\n'), group: 'csv', dataModel: null });
  });
  return { worker, ms: Math.round(performance.now() - t0) };
}

async function measure(mode: string) {
  const { code, options, buildMs } = await workerFor(mode);
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 300));
  const before = rssMiB();
  const cpuBefore = process.cpuUsage();
  const booted = [];
  for (let i = 0; i < WORKERS; i++) booted.push(await boot(code, options));
  const cpu = process.cpuUsage(cpuBefore);
  await new Promise((r) => setTimeout(r, 500));
  globalThis.gc?.();
  const grown = rssMiB() - before;
  for (const { worker } of booted) await worker.terminate();
  return {
    mode,
    buildMs,
    bootMs: booted.map((b) => b.ms),
    cpuMsPerWorker: Math.round((cpu.user + cpu.system) / 1000 / WORKERS),
    rssMiBPerWorker: Math.round((grown / WORKERS) * 10) / 10,
  };
}

const mode = process.argv[2];
if (mode) console.log(JSON.stringify(await measure(mode)));
else {
  for (const each of ['sources', 'bundle']) {
    const args = ['--no-node-snapshot', '--expose-gc', '--import', 'tsx', import.meta.filename, each];
    console.log(execFileSync(process.execPath, args, { encoding: 'utf8' }).trim());
  }
}
