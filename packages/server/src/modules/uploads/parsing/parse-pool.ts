import { isUtf8 } from 'node:buffer';
import os from 'node:os';
import type { FileHead } from '@gdb/shared/uploads/column-mapping.schemas';
import { joinCsvParts, type PartOutcome } from './csv-parts.ts';
import { detectFormat } from './detect.ts';
import type { ParseRequest, PooledOutcome } from './parse-file.ts';
import { parseWorkers } from './parse-workers.ts';
import type { HeadRequest } from './read-head.ts';
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
  /** A worker's share of files and bytes before it is ended (see parse-workers.ts). */
  workerShare?: { files: number; bytes: number };
}

/**
 * Booting spare workers takes about a fifth of a second of CPU each: done at once, it would compete
 * with the work that usually follows a check (an import of the rows just checked).
 */
const SPARE_DELAY_MS = 2000;

/**
 * A file up to this size (given as bytes) may be parsed while `concurrency` others are: its parse is
 * mostly the round trip to a worker, and an endpoint's calls or a listener's batches come by the
 * hundred a second, each waiting for the one before it otherwise.
 */
const SMALL_FILE_BYTES = 256 * 1024;

/** CSV files from this size on are parsed in slices when there is more than one core. */
const SLICE_FROM_BYTES = 4 * 1024 * 1024;

/**
 * A file to parse, its bytes or a way to read them: then it is read only once a worker is free for
 * it, so the files waiting their turn (the checks of a large upload) are not held in memory
 * meanwhile, and the bytes it answers are the pool's, handed to the worker without a copy. Bytes
 * given as they are stay the caller's and are copied.
 */
export type PoolRequest = Omit<ParseRequest, 'bytes'> & { bytes: Uint8Array | (() => Promise<Uint8Array>) };

/**
 * Parses files in worker threads with a memory cap and a time limit, a few at a time; a large CSV
 * file is cut into slices of whole records parsed side by side, one worker each, and joined (or
 * parsed whole when the slices disagree). Booting a worker
 * (its bundled code, parsers) costs about a fifth of a second, and a new worker's heap is new
 * memory, which costs as much again to fill as to use on some machines, so a worker that answered
 * goes back to the pool for the next file, up to FILES_PER_WORKER files or BYTES_PER_WORKER bytes (see parse-workers.ts); one
 * that failed, hit a limit or ran out of time is ended. Once the pool has been idle a while it boots
 * what the next file needs.
 */
export function createParsePool(options: PoolOptions = {}) {
  const concurrency = options.concurrency ?? Math.max(1, os.availableParallelism() - 1);
  const csvSlices = options.csvSlices ?? Math.min(2, os.availableParallelism());
  const sliceFromBytes = options.sliceFromBytes ?? SLICE_FROM_BYTES;
  let running = 0;
  const waiting: Array<{ small: boolean; go: () => void }> = [];
  /**
   * Files parsed, how many of them in slices, workers started, data model checks the workers
   * compiled, and files (or slices) given to a worker still booting.
   */
  const counts = { files: 0, sliced: 0, workers: 0, compiles: 0, bootWaits: 0 };
  const workers = parseWorkers(
    {
      maxMemoryMb: options.maxMemoryMb ?? 1024,
      timeoutMs: options.timeoutMs ?? 120_000,
      // As many as a file's slices.
      spareCount: Math.max(1, csvSlices),
      spareDelayMs: options.spareDelayMs ?? SPARE_DELAY_MS,
      idle: () => running === 0,
      share: options.workerShare,
    },
    counts,
  );

  const limitOf = (small: boolean) => (small ? concurrency + 1 : concurrency);
  /** Lets the files waiting their turn start, in order, as far as their limits allow. */
  function admit(): void {
    for (let i = 0; i < waiting.length; ) {
      const next = waiting[i];
      if (next && running < limitOf(next.small)) {
        waiting.splice(i, 1);
        running++;
        next.go();
      } else i++;
    }
  }
  /** Waits for a parse's turn (a small file may take one more than `concurrency`); answers its release. */
  async function slot(small: boolean): Promise<() => void> {
    await new Promise<void>((go) => {
      waiting.push({ small, go });
      admit();
    });
    return () => {
      running--;
      admit();
    };
  }

  /** Runs `work` in its turn among the files parsed at once, the spare workers held meanwhile. */
  async function inTurn<T>(small: boolean, work: () => Promise<T>): Promise<T> {
    const release = await slot(small);
    workers.holdSpares();
    try {
      return await work();
    } finally {
      release();
      workers.prepareSparesLater();
    }
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
    const { dataModel, dataModelKey, limits, columnMappings } = request;
    const part = { kind: 'csv-part', dataModel, dataModelKey, limits, columnMappings } as const;
    const answers = await Promise.all(slices.map((slice) => workers.runOne({ ...part, bytes: slice }, true)));
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
    parse(request: PoolRequest): Promise<PooledOutcome> {
      const small = typeof request.bytes !== 'function' && request.bytes.length <= SMALL_FILE_BYTES;
      return inTurn(small, async () => {
        counts.files++;
        const { bytes } = request;
        const read = typeof bytes === 'function';
        const ready = { ...request, bytes: read ? await bytes() : bytes };
        return (await inSlices(ready)) ?? (await workers.runOne(ready, read));
      });
    },

    /**
     * A file's header and first values, read in a worker like a file's check (its place among the
     * files parsed at once, its limits); the file's bytes are handed to the worker. Answers why a
     * file cannot be read instead of its head.
     */
    head(request: Omit<HeadRequest, 'kind'>): Promise<FileHead | { refused: string }> {
      return inTurn(false, async () => {
        const answer = await workers.runOne({ ...request, kind: 'head' }, true);
        if ('head' in answer) return answer.head;
        return { refused: 'refused' in answer ? answer.refused : answer.summary };
      });
    },

    /** Files parsed so far, how many of them in slices, workers started, and data model checks compiled. */
    counts(): Readonly<typeof counts> {
      return { ...counts };
    },
  };
}

export type ParsePool = ReturnType<typeof createParsePool>;
