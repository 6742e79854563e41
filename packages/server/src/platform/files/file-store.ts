import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/** Where file bytes live: a local folder (one instance) or the database (any number). */
export interface FileStore {
  readonly kind: 'local' | 'database';
  /**
   * Stores the bytes under a new key and answers the key once they are durable; given a
   * transaction (`within`), a store in the database writes them in it (durable, or gone, with it),
   * a local one as without it (the caller deletes the file when the transaction fails).
   */
  put(bytes: Uint8Array, within?: Kysely<Database>): Promise<string>;
  /**
   * Stores these files, each under a new key, and answers their keys in order once all are durable,
   * as `put` does each (`within` alike); a store in the database writes the small ones in one
   * statement. When it fails, none of them is left; when the transaction it was given fails after,
   * a local store's files are the caller's to delete, as with `put`.
   */
  putAll(files: readonly Uint8Array[], within?: Kysely<Database>): Promise<string[]>;
  /** Stores a file given piece by piece, as the pieces come (see {@link FileWriter}). */
  writer(): FileWriter;
  /**
   * Stores a file read from `chunks` as they come, each written before the next is asked for, so
   * the file is never whole in memory; answers the key once it is durable. When `chunks` fails
   * (the sender went away, a limit was passed), nothing of the file is left and its error is thrown.
   */
  putStream(chunks: AsyncIterable<Uint8Array>): Promise<string>;
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
  /** Keys of the files stored before `cutoff`: a sweep deletes the ones no row references. */
  keysStoredBefore(cutoff: Date): Promise<string[]>;
}

/**
 * A file stored piece by piece: each piece is written as it comes, in order, while the next ones
 * are still being made (a piece given is the writer's: the caller does not change it after); `done`
 * answers the key once the whole file is durable, `abort` leaves nothing behind. A failed write
 * shows at `done`.
 */
interface FileWriter {
  write(bytes: Uint8Array): void;
  done(): Promise<string>;
  abort(): Promise<void>;
}

/**
 * Runs the steps given to it one after the other; the first failure skips the steps after it and
 * is thrown by `settled`.
 */
export function inOrder() {
  let chain: Promise<void> = Promise.resolve();
  let failed: { error: unknown } | null = null;
  return {
    add(step: () => Promise<void>): void {
      chain = chain.then(async () => {
        if (failed) return;
        try {
          await step();
        } catch (error) {
          failed = { error };
        }
      });
    },
    async settled(): Promise<void> {
      await chain;
      if (failed) throw failed.error;
    },
  };
}

/** Bytes of a stream held at most while the store writes what came before them. */
const MAX_PENDING_BYTES = 2 * 1024 * 1024;

/**
 * Reads `chunks` to their end while `write` stores them, in order, without making the reading wait
 * for each write: the chunks that come while one write runs are written together by the next. On
 * a busy server every wait costs a turn of the event loop, so a file stored chunk by chunk (some
 * hundreds for 20 MiB) took most of a minute beside fifty users' reads; written this way it takes
 * a few turns. What waits for a write is bounded: past `maxPendingBytes` the reading waits for the
 * writes, so a store slower than the sender does not fill the memory with the file. A failed write
 * stops the reading, and is thrown once the writes in flight settle.
 */
export async function writeAsTheyCome(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  write: (batch: Uint8Array[]) => Promise<void>,
  maxPendingBytes = MAX_PENDING_BYTES,
): Promise<void> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let writing: Promise<void> | null = null;
  // Set by the writes, read by the reading: an object, so both see the same field.
  const outcome: { failed: { error: unknown } | null } = { failed: null };
  const drain = async () => {
    while (pending.length > 0 && !outcome.failed) {
      const batch = pending;
      pending = [];
      pendingBytes = 0;
      try {
        await write(batch);
      } catch (error) {
        outcome.failed = { error };
      }
    }
    writing = null;
  };
  try {
    for await (const chunk of chunks) {
      if (outcome.failed) break;
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      writing ??= drain();
      if (pendingBytes >= maxPendingBytes) await writing;
    }
  } finally {
    await writing;
  }
  if (outcome.failed) throw outcome.failed.error;
}

export const KEY = /^[0-9a-f]{2}\/[0-9a-f]{32}$/;

/** A new file's key: two hex digits of its folder, then 32 of its name. */
export function newKey(): string {
  const hex = crypto.randomBytes(16).toString('hex');
  return `${hex.slice(0, 2)}/${hex}`;
}

/** The key, once it is checked to be one (never a path of another shape). */
export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid file key: ${key}`);
  return key;
}
