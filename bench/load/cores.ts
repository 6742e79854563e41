// A stand-in for the import in `beside` (BENCH_BESIDE_CORES): a fixed amount of work for the CPU
// alone, in threads of a process of its own at a priority of its own, sharing nothing with the
// server but the machine's cores. Beside the fifty readers it shows what any work of the import's
// size and parallelism can get of the cores, whatever the server does. Started by `run.ts`, it
// answers its time on its IPC channel.
import { Worker } from 'node:worker_threads';
import { answerJob } from './in-process.ts';

export interface CoresJob {
  /** Each thread's priority, as `nice` counts it (below 0 needs the right to raise it). */
  nice: number;
  /**
   * The threads working side by side (the import's check reads a large file in two slices), each
   * one's work in steps of a small pseudo-random generator: unequal steps give work that keeps
   * between one and two cores busy over its time, as the import does.
   */
  steps: number[];
}

export interface CoresTimings {
  totalMs: number;
  cpuSeconds: number;
}

/** Steps of the generator one thread runs in about a second on this machine, measured here. */
export function stepsPerSecond(): number {
  const t0 = performance.now();
  spin(20_000_000);
  return Math.round(20_000_000 / ((performance.now() - t0) / 1000));
}

function spin(steps: number): number {
  let x = 1;
  for (let i = 0; i < steps; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  return x;
}

/** A thread's code, as plain JavaScript (a worker does not load TypeScript). */
const THREAD_CODE = `
const os = require('node:os');
const { parentPort, workerData } = require('node:worker_threads');
os.setPriority(workerData.nice);
parentPort.postMessage((${spin.toString()})(workerData.steps));
`;

function inThread(nice: number, steps: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(THREAD_CODE, { eval: true, workerData: { nice, steps } });
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
}

async function work(job: CoresJob): Promise<CoresTimings> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(job.steps.map((steps) => inThread(job.nice, steps)));
  const used = process.cpuUsage(cpu0);
  return { totalMs: performance.now() - t0, cpuSeconds: (used.user + used.system) / 1e6 };
}

answerJob(async (job: CoresJob) => () => work(job));
