import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * The sandbox's threads, made below the server's priority, like the parse workers': isolated-vm
 * runs every isolate's work on a pool of threads of its own (as many as the cores and one more,
 * for the whole process), each made the first time it is needed and given the priority of the
 * thread that made it. Made here, when the first isolate is asked for and before it runs, by a
 * worker thread that first lowers its own priority, they keep that priority for the life of the
 * process, and the server's event loop answering requests comes first when both want a core. On
 * Linux only: elsewhere a thread's priority is the whole process's.
 *
 * Beyond its pool isolated-vm makes a thread for a task only when every pool thread is busy
 * (more runs at once than cores and one); such a thread keeps the server's priority.
 */

/** A worker that makes the pool's threads: its isolates' work overlaps, so each task gets a thread of its own. */
function makerCode(isolatedVm: string, threads: number): string {
  return `
const os = require('node:os');
const { parentPort } = require('node:worker_threads');
// Below normal, unless the process was started lower still (then its own priority is kept).
const below = os.constants.priority.PRIORITY_BELOW_NORMAL;
if (os.getPriority() < below) os.setPriority(below);
const ivm = require(${JSON.stringify(isolatedVm)});
(async () => {
  const isolates = Array.from({ length: ${threads} }, () => new ivm.Isolate({ memoryLimit: 16 }));
  try {
    const contexts = await Promise.all(isolates.map((isolate) => isolate.createContext()));
    await Promise.all(contexts.map((context) => context.eval('const until = Date.now() + 20; while (Date.now() < until);')));
  } finally {
    for (const isolate of isolates) isolate.dispose();
  }
  parentPort.postMessage('made');
})().catch((error) => parentPort.postMessage(String(error)));
`;
}

/** How long the server waits for the threads to be made before it runs isolates anyway. */
const MAKE_TIMEOUT_MS = 10_000;

let made: Promise<string> | undefined;

/**
 * Makes the sandbox's threads below the server's priority, once per process: answers when they
 * are made, or why not ('made' when they are). Isolates must not run before it has answered.
 */
export function sandboxThreadsBelowNormal(): Promise<string> {
  made ??= makeThreads();
  return made;
}

function makeThreads(): Promise<string> {
  if (process.platform !== 'linux') return Promise.resolve('not on Linux');
  return new Promise<string>((resolve) => {
    let worker: Worker;
    try {
      const isolatedVm = createRequire(import.meta.url).resolve('isolated-vm');
      // The pool's size, from the cores isolated-vm counts (online), or more: extra tasks get threads that end.
      const threads = Math.max(os.cpus().length, os.availableParallelism()) + 1;
      worker = new Worker(makerCode(isolatedVm, threads), { eval: true, execArgv: [] });
    } catch (error) {
      resolve(error instanceof Error ? error.message : String(error));
      return;
    }
    const done = (outcome: string) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('timed out'), MAKE_TIMEOUT_MS);
    worker.once('message', (outcome: string) => done(outcome));
    worker.once('error', (error) => done(error.message));
    worker.once('exit', (code) => done(`ended with code ${code}`));
  });
}
