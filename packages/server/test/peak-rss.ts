import { Worker } from 'node:worker_threads';

const SAMPLER = `
const { workerData, parentPort } = require('node:worker_threads');
const peak = new Float64Array(workerData);
const sample = () => { const rss = process.memoryUsage.rss(); if (rss > peak[0]) peak[0] = rss; };
sample();
setInterval(sample, 2);
parentPort.postMessage('ready');
`;

/**
 * Starts watching the process's resident memory from now: a thread samples it every 2 ms beside
 * the work, so buffers outside the JavaScript heap count and a peak between two samples of the
 * main thread is not missed. `stop` answers the growth at the peak, in MiB (one decimal).
 */
export async function watchPeakRss(): Promise<{ stop: () => Promise<number> }> {
  const shared = new SharedArrayBuffer(8);
  const peak = new Float64Array(shared);
  const sampler = new Worker(SAMPLER, { eval: true, workerData: shared });
  await new Promise((resolve) => sampler.once('message', resolve));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const before = process.memoryUsage.rss();
  peak[0] = before;
  return {
    async stop() {
      // One last sample, for a peak the sampler's interval fell between.
      const top = Math.max(peak[0] ?? 0, process.memoryUsage.rss());
      await sampler.terminate();
      return Math.round(((top - before) / (1024 * 1024)) * 10) / 10;
    },
  };
}
