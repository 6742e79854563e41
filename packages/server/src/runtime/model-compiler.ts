import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../platform/error-message.ts';
import { bundledWorkerCode } from '../platform/worker-code.ts';
import type { CompileAnswer, CompileRequest } from './model-compile.ts';
import { PromiseCache } from './promise-cache.ts';

const ENTRY = path.join(import.meta.dirname, 'model-compile.worker.ts');
/** Compiled data models kept, by the versions they are made of. */
const CACHE_SIZE = 500;
/** Data models compiled at once: a hostile one holds one place for its time limit at most. */
const CONCURRENCY = 2;

/** The limits of one compile: wall clock, and the worker's heap. */
export interface CompileLimits {
  timeoutMs: number;
  memoryMiB: number;
}

/** Why a compile stopped at a limit; each names its setting. */
export const COMPILE_MESSAGES = {
  timeout: (ms: number) => `it took longer to compile than SCHEMA_COMPILE_TIMEOUT_MS allows (${ms} ms)`,
  memory: (mib: number) => `it needs more memory to compile than SCHEMA_COMPILE_MEMORY_MIB allows (${mib} MiB)`,
} as const;

/**
 * Compiles data models off the event loop: each in a worker thread with a heap limit, ended at
 * once past its time limit (a model of one definition used 400 times held every request for 11.7 s
 * when compiled on the main thread). Answers are kept by `key`, the versions a model is made of, so
 * editing one data model recompiles it and what references it, nothing else; a compile stopped at a
 * limit is not kept (a busy machine may have made it slow).
 */
export function modelCompiler(limits: CompileLimits) {
  // Only the compiler's own answers are kept (a model it refuses is refused again): a compile stopped
  // at a limit or by its worker's end, or a worker that could not be built, is tried again next run.
  const cache = new PromiseCache<CompileAnswer>(CACHE_SIZE, (a) => !('stopped' in a && a.stopped));
  const idle: Worker[] = [];
  const waiting: (() => void)[] = [];
  let running = 0;
  /** Data models compiled (not taken from the cache) so far. */
  let compiled = 0;

  async function slot(): Promise<() => void> {
    if (running >= CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    return () => {
      running--;
      waiting.shift()?.();
    };
  }

  function take(code: string): Worker {
    for (let worker = idle.pop(); worker; worker = idle.pop()) {
      // An idle worker that ended meanwhile has no thread any more.
      if (worker.threadId !== -1) {
        worker.ref();
        return worker;
      }
    }
    const worker = new Worker(code, {
      eval: true,
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMiB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    // An idle worker that fails is dropped when next taken (take() sees it has no thread).
    worker.on('error', () => undefined);
    return worker;
  }

  function inWorker(code: string, request: CompileRequest): Promise<CompileAnswer> {
    return new Promise((resolve) => {
      const worker = take(code);
      let done = false;
      const finish = (answer: CompileAnswer, keep: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        worker.off('message', answered).off('error', failed).off('exit', exited);
        if (keep && idle.length === 0) {
          worker.unref();
          idle.push(worker);
        } else void worker.terminate();
        resolve(answer);
      };
      const stopped = (message: string, limit = false) => finish({ failed: request.id, message, limit, stopped: true }, false);
      const answered = (answer: CompileAnswer) => finish(answer, true);
      const failed = (error: Error & { code?: string }) =>
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? stopped(COMPILE_MESSAGES.memory(limits.memoryMiB), true)
          : stopped(errorMessage(error));
      const exited = (exitCode: number) => stopped(`the compiler stopped (exit code ${exitCode})`);
      const timer = setTimeout(() => stopped(COMPILE_MESSAGES.timeout(limits.timeoutMs), true), limits.timeoutMs);
      worker.on('message', answered).on('error', failed).on('exit', exited);
      worker.postMessage(request);
    });
  }

  async function compileNow(request: CompileRequest): Promise<CompileAnswer> {
    const code = await bundledWorkerCode(ENTRY, 'model-compile-worker.cjs');
    const release = await slot();
    try {
      return await inWorker(code, request);
    } finally {
      release();
    }
  }

  return {
    /** A data model's standalone validator code, compiled in a worker or taken from the cache by `key`. */
    compile(key: string, request: CompileRequest): Promise<CompileAnswer> {
      const kept = cache.get(key);
      if (kept) return kept;
      compiled++;
      return cache.set(key, compileNow(request));
    },

    /** Data models compiled so far, those taken from the cache left out. */
    compiled: () => compiled,
  };
}

export type ModelCompiler = ReturnType<typeof modelCompiler>;
