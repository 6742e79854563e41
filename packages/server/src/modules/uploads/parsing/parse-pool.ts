import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type CsvPartRequest, joinCsvParts, type PartOutcome } from './csv-parts.ts';
import { detectFormat } from './detect.ts';
import { invalid, type ParseRequest, type PooledOutcome, pooled } from './parse-file.ts';
import { splitCsv } from './split-csv.ts';

export interface PoolOptions {
  /** Files parsed at once (default: cores − 1, at least 1). */
  concurrency?: number;
  /** Heap a parse may use, in MiB. */
  maxMemoryMb?: number;
  timeoutMs?: number;
  /** Slices a large CSV file is cut into, each parsed and checked in a worker of its own (default: cores, at most 2). */
  csvSlices?: number;
  /** Smallest CSV file cut into slices, in bytes. */
  sliceFromBytes?: number;
  /** How long the pool stays idle before it boots the workers for the next file, in milliseconds. */
  spareDelayMs?: number;
}

/**
 * Booting spare workers takes most of a second of CPU each: done at once, it would compete with
 * the work that usually follows a check (an import of the rows just checked).
 */
const SPARE_DELAY_MS = 2000;

/** Files a worker parses before it is ended (a new one starts with a clean heap). */
const FILES_PER_WORKER = 50;

/** CSV files from this size on are parsed in slices when there is more than one core. */
const SLICE_FROM_BYTES = 4 * 1024 * 1024;

// The worker loads TypeScript through tsx, whether or not the parent runs under it.
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((api) => { api.register(); return import(workerData.entry); });
`;
// The package's ESM entry sits beside the CommonJS one that require() resolves.
const tsxApi = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
const entry = pathToFileURL(path.join(import.meta.dirname, 'parse.worker.ts')).href;

/**
 * A file to parse, its bytes or a way to read them: then it is read only once a worker is free for
 * it, so the files waiting their turn (the checks of a large upload) are not held in memory meanwhile.
 */
export type PoolRequest = Omit<ParseRequest, 'bytes'> & { bytes: Uint8Array | (() => Promise<Uint8Array>) };

/** Why a worker ended before it answered: an error, or its exit code. */
type Ended = { error: Error & { code?: string } } | { code: number };

/** A parse worker: booting or booted, with how it ended when it did and the files it was given. */
interface Started {
  worker: Worker;
  ended?: Ended;
  onEnd?: (ended: Ended) => void;
  files: number;
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
 * Parses files in worker threads with a memory cap and a time limit, a few at a time; a large CSV
 * file is cut into slices of whole records parsed side by side, one worker each, and joined (or
 * parsed whole when the slices disagree). Booting a worker (TypeScript loader, parsers) costs most
 * of a second, and a new worker's heap is new memory, which costs as much again to fill as to use
 * on some machines, so a worker that answered goes back to the pool for the next file, up to
 * {@link FILES_PER_WORKER} files; one that failed, hit a limit or ran out of time is ended. Once the
 * pool has been idle a while it boots what the next file needs.
 */
export function createParsePool(options: PoolOptions = {}) {
  const concurrency = options.concurrency ?? Math.max(1, os.availableParallelism() - 1);
  const maxMemoryMb = options.maxMemoryMb ?? 1024;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const csvSlices = options.csvSlices ?? Math.min(2, os.availableParallelism());
  /** Booted workers kept idle for the next file: as many as a file's slices. */
  const spareCount = Math.max(1, csvSlices);
  const sliceFromBytes = options.sliceFromBytes ?? SLICE_FROM_BYTES;
  let running = 0;
  const waiting: Array<() => void> = [];
  const spares: Started[] = [];
  const spareDelayMs = options.spareDelayMs ?? SPARE_DELAY_MS;
  let spareTimer: NodeJS.Timeout | undefined;
  /** Files parsed, how many of them in slices, and workers started. */
  const counts = { files: 0, sliced: 0, workers: 0 };

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
    const started: Started = { worker, files: 0 };
    counts.workers++;
    const end = (ended: Ended) => {
      if (started.ended) return;
      started.ended = ended;
      started.onEnd?.(ended);
    };
    worker.once('error', (error: Error & { code?: string }) => end({ error }));
    worker.once('exit', (code) => end({ code }));
    return started;
  }

  /** Gives a worker that answered back to the pool for the next file, or ends it. */
  function giveBack(started: Started): void {
    started.onEnd = undefined;
    if (started.ended || started.files >= FILES_PER_WORKER || spares.length >= spareCount) {
      void started.worker.terminate();
      return;
    }
    started.worker.unref();
    spares.push(started);
  }

  /** A booted spare when one is still alive, else a new worker. */
  function take(): Started {
    for (let taken = spares.shift(); taken; taken = spares.shift()) {
      if (taken.ended) continue;
      taken.worker.ref();
      return taken;
    }
    return start();
  }

  /** Boots the workers for the next file once the pool has been idle a while; idle spares do not keep the process alive. */
  function prepareSparesLater(): void {
    clearTimeout(spareTimer);
    spareTimer = setTimeout(prepareSpares, spareDelayMs);
    spareTimer.unref();
  }

  function prepareSpares(): void {
    if (running > 0) return;
    while (spares.length < spareCount) {
      const spare = start();
      spare.worker.unref();
      spares.push(spare);
    }
  }

  /** Parses in a worker; `owned` bytes (a slice cut here, a buffer of their own) are handed to it, not copied. */
  function runOne(request: ParseRequest): Promise<PooledOutcome>;
  function runOne(request: CsvPartRequest, owned: true): Promise<PartOutcome | PooledOutcome>;
  function runOne(request: ParseRequest | CsvPartRequest, owned = false): Promise<PartOutcome | PooledOutcome> {
    return new Promise((resolve) => {
      const started = take();
      const { worker } = started;
      started.files++;
      let settled = false;
      const finish = (outcome: PartOutcome | PooledOutcome, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', answered);
        if (reusable) giveBack(started);
        else void worker.terminate();
        resolve(outcome);
      };
      const answered = (outcome: PartOutcome | PooledOutcome) => finish(outcome, true);
      const timer = setTimeout(() => finish(pooled(invalid('binary', 'The file took too long to read.')), false), timeoutMs);
      worker.once('message', answered);
      started.onEnd = (ended) => finish(failure(ended), false);
      // The caller's bytes stay its own: a slice cut here is handed over, anything else is copied
      // (a Buffer's slice() would share them, and transfer them).
      const bytes = owned ? request.bytes : new Uint8Array(request.bytes);
      worker.postMessage({ ...request, bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  /** A large CSV file parsed in slices; null when it is not one, or its slices cannot stand for it. */
  async function inSlices(request: ParseRequest): Promise<PooledOutcome | null> {
    const { bytes } = request;
    if (csvSlices < 2 || request.group !== 'csv' || bytes.length < sliceFromBytes || detectFormat(bytes) !== 'text') return null;
    // The encoding is the whole file's: only UTF-8 is cut (every slice reads as UTF-8 then); a file
    // in UTF-16 or Windows-1252 is read whole, in one worker.
    if (!isUtf8(bytes)) return null;
    const slices = splitCsv(bytes, csvSlices);
    if (!slices) return null;
    const answers = await Promise.all(
      slices.map((slice) =>
        runOne({ kind: 'csv-part', bytes: slice, dataModel: request.dataModel, limits: request.limits }, true),
      ),
    );
    // A slice over the memory cap or the time limit: the whole file would be too.
    const failed = answers.find((a): a is PooledOutcome => !('kind' in a));
    if (failed) return failed;
    const joined = joinCsvParts(answers as PartOutcome[], request.limits);
    if (joined) counts.sliced++;
    return joined;
  }

  return {
    /**
     * Parses one file; answers an outcome, invalid when the parse failed or hit a limit (a
     * file it cannot read throws).
     */
    async parse(request: PoolRequest): Promise<PooledOutcome> {
      const release = await slot();
      clearTimeout(spareTimer);
      counts.files++;
      try {
        const ready =
          typeof request.bytes === 'function'
            ? { ...request, bytes: await request.bytes() }
            : { ...request, bytes: request.bytes };
        return (await inSlices(ready)) ?? (await runOne(ready));
      } finally {
        release();
        prepareSparesLater();
      }
    },

    /** Files parsed so far, how many of them in slices, and workers started. */
    counts(): Readonly<typeof counts> {
      return { ...counts };
    },
  };
}

export type ParsePool = ReturnType<typeof createParsePool>;
