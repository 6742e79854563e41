import { Worker } from 'node:worker_threads';
import { handOverable } from '../../../platform/files/json-parts.ts';
import type { CsvPartRequest, PartOutcome } from './csv-parts.ts';
import { invalid, type ParseRequest, type PooledOutcome, pooled } from './parse-file.ts';
import { parseWorkerCode } from './parse-worker-code.ts';
import type { HeadOutcome, HeadRequest } from './read-head.ts';

/**
 * A worker is ended once it has read this many bytes in all, or this many files (a new one starts
 * with a clean heap, and its kept data model checks anew). Counted in bytes, not only files: an
 * endpoint's calls and a listener's batches are small files by the hundred a second, and booting a
 * worker costs about a fifth of a second of CPU.
 */
const BYTES_PER_WORKER = 64 * 1024 * 1024;
const FILES_PER_WORKER = 2000;
/**
 * A worker that read this many bytes or more in one file is ended once it answers: its heap grew
 * with the file and a worker's heap is not given back while it lives (two slices of a 20 MiB file
 * kept about 350 MiB of the process). The spares booted once the pool is idle start small.
 */
const LARGE_FILE_BYTES = 2 * 1024 * 1024;

/** A worker's answer: the outcome, and the data model checks it compiled for it (kept-checks.ts). */
type Answer = (PartOutcome | PooledOutcome | HeadOutcome) & { compiles: number };

/** Why a worker ended before it answered: an error, or its exit code. */
type Ended = { error: Error & { code?: string } } | { code: number };

/** A parse worker: booting or booted, with how it ended when it did and the files it was given. */
interface Started {
  worker: Worker;
  ended?: Ended;
  onEnd?: (ended: Ended) => void;
  files: number;
  /** The bytes of the files it was given. */
  bytes: number;
  /** It read a large file (LARGE_FILE_BYTES): ended once it answers. */
  large?: boolean;
  /** Booted: it takes a file at once. */
  online?: boolean;
  /** Past its share, a successor booted for it: it serves until a worker within its share is ready. */
  retiring?: boolean;
}

function failure(ended: Ended): PooledOutcome {
  if (!('error' in ended)) return pooled(invalid('binary', `The file cannot be read (parser exited with code ${ended.code}).`));
  const { error } = ended;
  const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY' || /heap|memory/i.test(error.message);
  return pooled(
    invalid('binary', memory ? 'The file needs too much memory to read.' : `The file cannot be read: ${error.message}`),
  );
}

/** The upload's log line of a read and check stopped at its time limit, naming the setting. */
const tooLong = (timeoutMs: number) =>
  `The file took too long to read and check: it passed the limit of UPLOAD_CHECK_TIMEOUT_S (${timeoutMs / 1000} s).`;

/** Starts a worker running `code` (the bundled parse worker, see parse-worker-code.ts). */
function start(maxMemoryMb: number, code: string): Started {
  const worker = new Worker(code, {
    eval: true,
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: 64, stackSizeMb: 4 },
  });
  const started: Started = { worker, files: 0, bytes: 0 };
  const end = (ended: Ended) => {
    if (started.ended) return;
    started.ended = ended;
    started.onEnd?.(ended);
  };
  worker.once('online', () => {
    started.online = true;
  });
  worker.once('error', (error: Error & { code?: string }) => end({ error }));
  worker.once('exit', (code) => end({ code }));
  return started;
}

/** How the pool's workers run: their limits, how many spares it keeps and when it boots them. */
export interface WorkerOptions {
  /** Heap a parse may use, in MiB. */
  maxMemoryMb: number;
  timeoutMs: number;
  /** Booted workers kept idle for the next file. */
  spareCount: number;
  /** How long the pool stays idle before it boots the workers for the next file, in milliseconds. */
  spareDelayMs: number;
  /** Whether no file is being parsed (spares boot only then). */
  idle: () => boolean;
  /** A worker's share before it is ended: files and bytes (FILES_PER_WORKER, BYTES_PER_WORKER by default). */
  share?: { files: number; bytes: number };
}

/**
 * The idle workers of a pool, booted or booting: a worker that answered is kept for the next file
 * up to `spareCount` of them and its share of files and bytes; one that failed or read a large file
 * is ended.
 */
function idleWorkers(share: { files: number; bytes: number }, spareCount: number, boot: () => Started) {
  const spares: Started[] = [];
  const worn = (w: Started) => w.files >= share.files || w.bytes >= share.bytes;
  /** An idle worker within its share that takes a file at once. */
  const readySpare = () => spares.find((w) => w.online && !w.retiring && !w.ended);

  /** Ends a worker and forgets it. */
  function end(w: Started): void {
    const at = spares.indexOf(w);
    if (at >= 0) spares.splice(at, 1);
    void w.worker.terminate();
  }

  /** Keeps a worker idle for the next file (an idle worker does not keep the process alive). */
  function keep(w: Started): void {
    w.worker.unref();
    spares.push(w);
  }

  /**
   * A worker past its share: the first time, its successor boots (booting takes about a fifth of a
   * second, which no file should wait for) and it goes on serving meanwhile; once a worker within
   * its share is ready, it is ended.
   */
  function retire(w: Started): void {
    if (!w.retiring) {
      w.retiring = true;
      keep(boot());
    }
    if (readySpare()) end(w);
    else keep(w);
  }

  /** Gives a worker that answered back to the pool for the next file, or ends it. */
  function giveBack(started: Started): void {
    started.onEnd = undefined;
    if (started.ended || started.large) end(started);
    else if (worn(started)) retire(started);
    else if (spares.filter((w) => !w.retiring).length >= spareCount) end(started);
    else keep(started);
  }

  /** Idle workers past their share, ended once a worker within its share is ready. */
  function endRetired(): void {
    if (!readySpare()) return;
    for (const w of spares.filter((spare) => spare.retiring)) end(w);
  }

  /**
   * An idle worker: a ready one within its share, else a ready one past it (its successor still
   * booting), else one booting; a new one when there is none.
   */
  function take(): Started {
    for (const w of spares.filter((spare) => spare.ended)) end(w);
    const taken = readySpare() ?? spares.find((w) => w.online) ?? spares[0];
    if (!taken) return boot();
    spares.splice(spares.indexOf(taken), 1);
    endRetired();
    taken.worker.ref();
    return taken;
  }

  return { take, giveBack, keep, count: () => spares.length };
}

/**
 * The workers of a parse pool: a worker that answered goes back to the pool for the next file, up
 * to its share of files and bytes; one that failed, hit a limit or ran out of time is ended.
 * `counts.workers` counts the workers started, `counts.compiles` the data model checks they compiled,
 * `counts.bootWaits` the files given to a worker still booting.
 */
export function parseWorkers(options: WorkerOptions, counts: { workers: number; compiles: number; bootWaits: number }) {
  const share = options.share ?? { files: FILES_PER_WORKER, bytes: BYTES_PER_WORKER };
  let spareTimer: NodeJS.Timeout | undefined;
  /** The workers' code, once built (at the first file or the first spares). */
  let code: string | undefined;

  function boot(): Started {
    if (code === undefined) throw new Error('The parse worker is not built yet.');
    counts.workers++;
    return start(options.maxMemoryMb, code);
  }

  /** Builds the workers' code when it is not yet: undefined once ready, else why it could not be built. */
  async function built(): Promise<Ended | undefined> {
    if (code !== undefined) return undefined;
    try {
      code = await parseWorkerCode();
      return undefined;
    } catch (error) {
      return { error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  const idle = idleWorkers(share, options.spareCount, boot);

  async function prepareSpares(): Promise<void> {
    if (!options.idle() || (await built()) || !options.idle()) return;
    while (idle.count() < options.spareCount) idle.keep(boot());
  }

  /**
   * Parses in a worker; `owned` bytes (a slice cut here, a file the pool read itself) are handed to
   * it, not copied: copying a 20 MiB file into new memory took 60–80 ms of the event loop.
   */
  function runOne(request: ParseRequest, owned?: boolean): Promise<PooledOutcome>;
  function runOne(request: CsvPartRequest, owned: true): Promise<PartOutcome | PooledOutcome>;
  function runOne(request: HeadRequest, owned: boolean): Promise<HeadOutcome | PooledOutcome>;
  async function runOne(
    request: ParseRequest | CsvPartRequest | HeadRequest,
    owned = false,
  ): Promise<PartOutcome | PooledOutcome | HeadOutcome> {
    const unbuilt = await built();
    if (unbuilt) return failure(unbuilt);
    return new Promise((resolve) => {
      const started = idle.take();
      if (!started.online) counts.bootWaits++;
      const { worker } = started;
      started.files++;
      started.bytes += request.bytes.length;
      started.large = request.bytes.length >= LARGE_FILE_BYTES;
      let settled = false;
      const finish = (outcome: PartOutcome | PooledOutcome | HeadOutcome, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', answered);
        if (reusable) idle.giveBack(started);
        else void worker.terminate();
        resolve(outcome);
      };
      const answered = ({ compiles, ...outcome }: Answer) => {
        counts.compiles += compiles;
        finish(outcome, true);
      };
      // The worker is ended at once: a check past its limit frees its place for the next file.
      const timer = setTimeout(() => finish(pooled(invalid('binary', tooLong(options.timeoutMs))), false), options.timeoutMs);
      worker.once('message', answered);
      started.onEnd = (ended) => finish(failure(ended), false);
      // The caller's bytes stay its own: owned bytes are handed over, anything else is copied (a
      // Buffer's slice() would share them, and transfer them).
      const bytes = owned && handOverable(request.bytes) ? request.bytes : new Uint8Array(request.bytes);
      worker.postMessage({ ...request, bytes }, [bytes.buffer as ArrayBuffer]);
    });
  }

  return {
    runOne,
    /** Boots the workers for the next file once the pool has been idle a while; idle spares do not keep the process alive. */
    prepareSparesLater(): void {
      clearTimeout(spareTimer);
      spareTimer = setTimeout(() => void prepareSpares(), options.spareDelayMs);
      spareTimer.unref();
    },
    /** Boots no spares for now: a file is being parsed. */
    holdSpares(): void {
      clearTimeout(spareTimer);
    },
  };
}
