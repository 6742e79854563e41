import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { binaryCopyFraming, text as copyText, int4, joinedBinaryCopyColumn } from '../db/binary-copy.ts';
import { copyInBinary, copyOutBinary } from '../db/copy-streams.ts';
import type { Database, Db } from '../db/index.ts';

/** Where file bytes live: a local folder (one instance) or the database (any number). */
export interface FileStore {
  readonly kind: 'local' | 'database';
  /** Stores the bytes under a new key and answers the key once they are durable. */
  put(bytes: Uint8Array): Promise<string>;
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
function inOrder() {
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

const KEY = /^[0-9a-f]{2}\/[0-9a-f]{32}$/;

function newKey(): string {
  const hex = crypto.randomBytes(16).toString('hex');
  return `${hex.slice(0, 2)}/${hex}`;
}

function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`Invalid file key: ${key}`);
  return key;
}

/** A new file under `root`, written under a temporary name until `finish` flushes it and renames it into place. */
interface TempFile {
  /** Writes these pieces in their order, as they are: joining them first would copy them into new memory. */
  write(pieces: readonly Uint8Array[]): Promise<void>;
  /** Flushes the file, moves it to its key and answers the key. */
  finish(): Promise<string>;
  /** Removes what was written (after a failure, `finish`'s included). */
  discard(): Promise<void>;
}

/** What is left of these pieces once their first `written` bytes are written. */
export function unwritten(pieces: readonly Uint8Array[], written: number): Uint8Array[] {
  let i = 0;
  let left = written;
  for (; i < pieces.length && left >= (pieces[i]?.byteLength ?? 0); i++) left -= pieces[i]?.byteLength ?? 0;
  const rest = pieces.slice(i);
  const first = rest[0];
  if (first && left > 0) rest[0] = first.subarray(left);
  return rest;
}

async function tempFile(root: string): Promise<TempFile> {
  const key = newKey();
  const target = path.join(root, key);
  const temp = `${target}.${process.pid}.tmp`;
  await fs.mkdir(path.dirname(target), { recursive: true });
  let handle: fs.FileHandle | undefined = await fs.open(temp, 'wx', 0o600);
  const close = async () => {
    const open = handle;
    handle = undefined;
    await open?.close();
  };
  return {
    async write(pieces) {
      for (let rest = pieces.filter((p) => p.byteLength > 0); handle && rest.length > 0; ) {
        const { bytesWritten } = await handle.writev(rest);
        if (bytesWritten === 0) throw new Error('The file could not be written.');
        rest = unwritten(rest, bytesWritten);
      }
    },
    async finish() {
      await handle?.sync();
      await close();
      await fs.rename(temp, target);
      return key;
    },
    async discard() {
      await close().catch(() => undefined);
      await fs.rm(temp, { force: true });
    },
  };
}

/**
 * A file's bytes, read with as few calls as its size allows (one, mostly). `fs.readFile` reads in
 * pieces of 512 KiB, each a call of its own that waits a turn of the event loop: 30 MB of checked
 * rows took 60-odd turns, seconds on a server busy with other requests.
 */
async function readWhole(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  } finally {
    await handle.close();
  }
}

/** Files under `root`, written to a temporary name, flushed, then renamed into place. */
export function localFileStore(root: string): FileStore {
  async function putStream(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<string> {
    const file = await tempFile(root);
    try {
      await writeAsTheyCome(chunks, (batch) => file.write(batch));
      return await file.finish();
    } catch (error) {
      await file.discard();
      throw error;
    }
  }
  return {
    kind: 'local',
    put: (bytes) => putStream([bytes]),
    putStream,
    writer() {
      const steps = inOrder();
      let file: TempFile | undefined;
      steps.add(async () => {
        file = await tempFile(root);
      });
      const abort = async () => {
        await steps.settled().catch(() => undefined);
        await file?.discard();
      };
      return {
        write(bytes) {
          steps.add(async () => file?.write([bytes]));
        },
        async done() {
          try {
            await steps.settled();
            if (!file) throw new Error('The file was not opened.');
            return await file.finish();
          } catch (error) {
            await abort();
            throw error;
          }
        },
        abort,
      };
    },
    get: async (key) => readWhole(path.join(root, checkKey(key))),
    async delete(key) {
      await fs.rm(path.join(root, checkKey(key)), { force: true });
    },
    async keysStoredBefore(cutoff) {
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      const keys: string[] = [];
      for (const entry of entries) {
        // Files being written have a temporary name, which is no key.
        const key = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
        if (!entry.isFile() || !KEY.test(key)) continue;
        const stat = await fs.stat(path.join(root, key)).catch(() => null);
        if (stat && stat.mtime < cutoff) keys.push(key);
      }
      return keys;
    },
  };
}

/** The largest part of a file in one row of `file_blobs`. */
export const FILE_PART_BYTES = 1024 * 1024;

/**
 * A stored file's bytes, its parts joined in order, or null when no part is stored: on a PostgreSQL
 * server read as a binary COPY (bytes as they are, not the hex text of a query's `bytea`), on the
 * embedded database by a query.
 */
async function storedBytes(db: Db, key: string): Promise<Buffer | null> {
  if (db.pgPool) {
    // Its size first (each part's row has the whole file's), so that its data comes into one buffer of that size.
    const stored = await sql<{ size: number | null; parts: number }>`
      select max(size) as size, count(*)::int as parts from file_blobs where key = ${key}`.execute(db.kysely);
    const { size, parts } = stored.rows[0] ?? { size: null, parts: 0 };
    if (size === null) return null;
    const data = await copyOutBinary(
      db.pgPool,
      `select bytes from file_blobs where key = ${pg.escapeLiteral(key)} order by part`,
      Number(size) + binaryCopyFraming(parts),
    );
    const { rows, bytes } = joinedBinaryCopyColumn(data);
    return rows === 0 ? null : bytes;
  }
  const r = await sql<{ bytes: Uint8Array }>`select bytes from file_blobs where key = ${key} order by part`.execute(db.kysely);
  return r.rows.length === 0 ? null : Buffer.concat(r.rows.map((row) => row.bytes));
}

/** A file's parts as rows of `file_blobs`: views of the pieces' bytes, at most {@link FILE_PART_BYTES} each (an empty file is one empty part). */
function partsOf(pieces: readonly Uint8Array[]): Buffer[] {
  const parts: Buffer[] = [];
  for (const piece of pieces) {
    const view = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    for (let at = 0; at < view.length; at += FILE_PART_BYTES) parts.push(view.subarray(at, at + FILE_PART_BYTES));
  }
  return parts.length > 0 ? parts : [Buffer.alloc(0)];
}

/**
 * Writes parts of a file as rows of `file_blobs`, numbered from `first`, all or none: to a
 * PostgreSQL server as one binary COPY (the bytes written as they are, see `copyInBinary`), on the
 * embedded database as an insert each, in one transaction when there are several. The parts are
 * the caller's bytes, unchanged until this answers.
 */
async function writeParts(db: Db, key: string, size: number, parts: readonly Buffer[], first = 0): Promise<void> {
  if (db.pgPool) {
    const rows = parts.map((bytes, i) => [copyText(key), int4(first + i), bytes, int4(size)]);
    await copyInBinary(db.pgPool, 'file_blobs (key, part, bytes, size)', rows);
    return;
  }
  const insertParts = async (into: Kysely<Database>) => {
    for (const [i, bytes] of parts.entries()) {
      await sql`insert into file_blobs (key, part, bytes, size) values (${key}, ${first + i}, ${bytes}, ${size})`.execute(into);
    }
  };
  if (parts.length === 1) await insertParts(db.kysely);
  else await db.kysely.transaction().execute(insertParts);
}

/**
 * Files as rows of `file_blobs`, a part of at most {@link FILE_PART_BYTES} each, all committed
 * before the key is answered.
 */
export function databaseFileStore(db: Db): FileStore {
  /** Stores a file given as pieces, each as it is (not joined first), in parts of at most FILE_PART_BYTES. */
  async function putPieces(pieces: readonly Uint8Array[]): Promise<string> {
    const key = newKey();
    const size = pieces.reduce((n, piece) => n + piece.byteLength, 0);
    await writeParts(db, key, size, partsOf(pieces));
    return key;
  }
  /**
   * Stores a file given as a stream, a part inserted each time FILE_PART_BYTES have come (what comes
   * while a part is being inserted waits for the next write, in memory). Each part is a statement of its own (a transaction left open while a sender
   * takes its time would hold a connection, or the embedded database's one session); until the key
   * is answered no one knows it, and the parts of a file never finished, should deleting them fail
   * too, are unreferenced files the sweep deletes.
   */
  async function putStream(chunks: AsyncIterable<Uint8Array>): Promise<string> {
    const key = newKey();
    let part = 0;
    let size = 0;
    // One part's buffer for every part: the database has a part before its write answers, and
    // memory already in use is filled far faster than new memory (60–80 ms against 2 ms for
    // 20 MiB on a 2-core machine).
    const filling = Buffer.allocUnsafe(FILE_PART_BYTES);
    let used = 0;
    const insert = async (bytes: Buffer) => {
      await writeParts(db, key, size, [bytes], part++);
    };
    /** Copies a chunk into the part being filled, inserting each part once full. */
    const take = async (chunk: Uint8Array) => {
      for (let at = 0; at < chunk.byteLength; ) {
        const taken = Math.min(FILE_PART_BYTES - used, chunk.byteLength - at);
        filling.set(chunk.subarray(at, at + taken), used);
        at += taken;
        used += taken;
        size += taken;
        if (used < FILE_PART_BYTES) continue;
        await insert(filling);
        used = 0;
      }
    };
    try {
      await writeAsTheyCome(chunks, async (batch) => {
        for (const chunk of batch) await take(chunk);
      });
      const earlier = part;
      // The last part (an empty file is one empty part); the parts inserted before it did not know the file's size yet.
      if (used > 0 || part === 0) await insert(filling.subarray(0, used));
      if (earlier > 0) await sql`update file_blobs set size = ${size} where key = ${key}`.execute(db.kysely);
      return key;
    } catch (error) {
      await sql`delete from file_blobs where key = ${key}`.execute(db.kysely).catch(() => undefined);
      throw error;
    }
  }
  return {
    kind: 'database',
    put: (bytes) => putPieces([bytes]),
    putStream,
    // The pieces are kept and stored at the end. Inserted as they come, they would need a
    // transaction left open meanwhile: on the embedded database's one session it would hold every
    // other query back, on a server a connection of the pool the run itself may wait for; and the
    // server's own work for them took the CPU from the run writing the next ones.
    writer() {
      let pieces: Uint8Array[] = [];
      return {
        write(bytes) {
          pieces.push(bytes);
        },
        done: () => putPieces(pieces),
        async abort() {
          pieces = [];
        },
      };
    },
    async get(key) {
      const bytes = await storedBytes(db, checkKey(key));
      if (!bytes) throw new Error(`No stored file ${key}`);
      return bytes;
    },
    async delete(key) {
      await sql`delete from file_blobs where key = ${checkKey(key)}`.execute(db.kysely);
    },
    async keysStoredBefore(cutoff) {
      const r = await sql<{ key: string }>`select distinct key from file_blobs where created_at < ${cutoff}`.execute(db.kysely);
      return r.rows.map((row) => row.key);
    },
  };
}

/**
 * A store keeping the files it stored or read last in memory, up to `maxBytes` in all (a file above
 * a quarter of that is not kept). A run reads the rows its upload's check stored moments before,
 * and reading 10 MB back from PostgreSQL's `bytea` takes longer than the run's own parse of them.
 * A key names bytes that never change, so a copy is never stale while its file exists; `delete`
 * forgets it first. Copies go in and out, so no caller can change what another one reads.
 */
export function cachedFileStore(inner: FileStore, maxBytes: number): FileStore {
  const kept = new Map<string, Buffer>();
  let size = 0;
  const forget = (key: string) => {
    const bytes = kept.get(key);
    if (!bytes) return;
    kept.delete(key);
    size -= bytes.length;
  };
  const keep = (key: string, bytes: Uint8Array) => {
    if (bytes.length > maxBytes / 4) return;
    forget(key);
    kept.set(key, Buffer.from(bytes));
    size += bytes.length;
    // A Map lists its keys in the order they were set: the first is the least recently used.
    for (const oldest of kept.keys()) {
      if (size <= maxBytes) break;
      forget(oldest);
    }
  };
  return {
    kind: inner.kind,
    async put(bytes) {
      const key = await inner.put(bytes);
      keep(key, bytes);
      return key;
    },
    // A file written piece by piece or from a stream is not kept: such files are the large ones.
    writer: () => inner.writer(),
    putStream: (chunks) => inner.putStream(chunks),
    async get(key) {
      const hit = kept.get(key);
      if (hit) {
        kept.delete(key);
        kept.set(key, hit);
        return Buffer.from(hit);
      }
      const bytes = await inner.get(key);
      keep(key, bytes);
      return bytes;
    },
    async delete(key) {
      forget(key);
      await inner.delete(key);
    },
    keysStoredBefore: (cutoff) => inner.keysStoredBefore(cutoff),
  };
}

/**
 * The store the configuration names; by default local for the embedded database, the database
 * otherwise, which keeps up to `cacheBytes` of recent files in memory (see `cachedFileStore`).
 */
export function openFileStore(kind: 'local' | 'database' | undefined, db: Db, dataDir: string, cacheBytes = 0): FileStore {
  const chosen = kind ?? (db.engine === 'pglite' ? 'local' : 'database');
  if (chosen === 'local') return localFileStore(path.join(dataDir, 'files'));
  const store = databaseFileStore(db);
  return cacheBytes > 0 ? cachedFileStore(store, cacheBytes) : store;
}
