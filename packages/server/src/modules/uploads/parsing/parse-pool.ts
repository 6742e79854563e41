import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { invalid, type ParseRequest, type PooledOutcome, pooled } from './parse-file.ts';

export interface PoolOptions {
  /** Files parsed at once (default: cores − 1, at least 1). */
  concurrency?: number;
  /** Heap a parse may use, in MiB. */
  maxMemoryMb?: number;
  timeoutMs?: number;
}

// The worker loads TypeScript through tsx, whether or not the parent runs under it.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((api) => { api.register(); return import(workerData.entry); });
`;
// The package's ESM entry sits beside the CommonJS one that require() resolves.
const tsxApi = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
const entry = pathToFileURL(path.join(import.meta.dirname, 'parse.worker.ts')).href;

/** Why a worker ended before it answered: an error, or its exit code. */
type Ended = { error: Error & { code?: string } } | { code: number };

/** A parse worker: booting or booted, with how it ended when it did. */
interface Started {
  worker: Worker;
  ended?: Ended;
  onEnd?: (ended: Ended) => void;
}

function failure(ended: Ended): PooledOutcome {
  if (!('error' in ended)) return pooled(invalid('binary', `The file cannot be read (parser exited with code ${ended.code}).`));
  const { error } = ended;
  const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY' || /heap|memory/i.test(error.message);
  return pooled(
    invalid('binary', memory ? 'The file needs too much memory to read.' : `The file cannot be read: ${error.message}`),
  );
}

/**
 * Parses files in worker threads with a memory cap and a time limit, a few at a time. Every file
 * gets a fresh worker, ended after it answers. Booting one (TypeScript loader, parsers) costs most
 * of a second, so once the pool has parsed a file it keeps the next worker booted and idle.
 */
export function createParsePool(options: PoolOptions = {}) {
  const concurrency = options.concurrency ?? Math.max(1, os.availableParallelism() - 1);
  const maxMemoryMb = options.maxMemoryMb ?? 1024;
  const timeoutMs = options.timeoutMs ?? 120_000;
  let running = 0;
  const waiting: Array<() => void> = [];
  let spare: Started | undefined;

  async function slot(): Promise<() => void> {
    if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    return () => {
      running--;
      waiting.shift()?.();
    };
  }

  function start(): Started {
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      execArgv: [],
      workerData: { tsx: tsxApi, entry },
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
    });
    const started: Started = { worker };
    const end = (ended: Ended) => {
      if (started.ended) return;
      started.ended = ended;
      started.onEnd?.(ended);
    };
    worker.once('error', (error: Error & { code?: string }) => end({ error }));
    worker.once('exit', (code) => end({ code }));
    return started;
  }

  /** The booted spare when it is still alive, else a new worker. */
  function take(): Started {
    const taken = spare;
    spare = undefined;
    if (taken && !taken.ended) {
      taken.worker.ref();
      return taken;
    }
    return start();
  }

  /** Boots the worker for the next file, once nothing is parsing; an idle spare does not keep the process alive. */
  function prepareSpare(): void {
    if (spare || running > 0) return;
    spare = start();
    spare.worker.unref();
  }

  function runOne(request: ParseRequest): Promise<PooledOutcome> {
    return new Promise((resolve) => {
      const started = take();
      const { worker } = started;
      let settled = false;
      const finish = (outcome: PooledOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        void worker.terminate();
        resolve(outcome);
      };
      const timer = setTimeout(() => finish(pooled(invalid('binary', 'The file took too long to read.'))), timeoutMs);
      worker.once('message', (outcome: PooledOutcome) => finish(outcome));
      started.onEnd = (ended) => finish(failure(ended));
      // A copy: the caller keeps its bytes (a Buffer's slice() would share them, and transfer them).
      const bytes = new Uint8Array(request.bytes);
      worker.postMessage({ ...request, bytes }, [bytes.buffer]);
    });
  }

  return {
    /** Parses one file; always answers an outcome, invalid when the parse failed or hit a limit. */
    async parse(request: ParseRequest): Promise<PooledOutcome> {
      const release = await slot();
      try {
        return await runOne(request);
      } finally {
        release();
        prepareSpare();
      }
    },
  };
}

export type ParsePool = ReturnType<typeof createParsePool>;
