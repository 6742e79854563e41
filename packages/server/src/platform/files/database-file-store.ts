import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { binaryCopyFraming, text as copyText, int4, joinedBinaryCopyColumn } from '../db/binary-copy.ts';
import { copyInBinary, copyOutBinary } from '../db/copy-streams.ts';
import type { Database, Db } from '../db/index.ts';
import { checkKey, type FileStore, newKey, writeAsTheyCome } from './file-store.ts';

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

/** A file this small goes to a PostgreSQL server as one insert (its bytes a binary parameter): one round trip, where a COPY takes two. */
const SMALL_FILE_BYTES = 64 * 1024;

/**
 * Writes parts of a file as rows of `file_blobs`, numbered from `first`, all or none: to a
 * PostgreSQL server as one binary COPY (the bytes written as they are, see `copyInBinary`) unless
 * the file is small or `within` a transaction (then as an insert each, in it), on the embedded
 * database as an insert each, in one transaction when there are several. The parts are the
 * caller's bytes, unchanged until this answers.
 */
async function writeParts(
  db: Db,
  key: string,
  size: number,
  parts: readonly Buffer[],
  first = 0,
  within?: Kysely<Database>,
): Promise<void> {
  if (db.pgPool && !within && !(parts.length === 1 && size <= SMALL_FILE_BYTES)) {
    const rows = parts.map((bytes, i) => [copyText(key), int4(first + i), bytes, int4(size)]);
    await copyInBinary(db.pgPool, 'file_blobs (key, part, bytes, size)', rows);
    return;
  }
  const insertParts = async (into: Kysely<Database>) => {
    for (const [i, bytes] of parts.entries()) {
      await sql`insert into file_blobs (key, part, bytes, size) values (${key}, ${first + i}, ${bytes}, ${size})`.execute(into);
    }
  };
  if (within) await insertParts(within);
  else if (parts.length === 1) await insertParts(db.kysely);
  else await db.kysely.transaction().execute(insertParts);
}

/**
 * Writes small files (one part each, at most {@link SMALL_FILE_BYTES}) as one insert of a row each,
 * all or none: one round trip for all of them.
 */
async function insertSmallFiles(into: Kysely<Database>, files: ReadonlyArray<{ key: string; bytes: Uint8Array }>): Promise<void> {
  if (files.length === 0) return;
  const rows = files.map(({ key, bytes }) => {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return sql`(${key}, 0, ${view}, ${bytes.byteLength})`;
  });
  await sql`insert into file_blobs (key, part, bytes, size) values ${sql.join(rows)}`.execute(into);
}

/**
 * Files as rows of `file_blobs`, a part of at most {@link FILE_PART_BYTES} each, all committed
 * before the key is answered.
 */
export function databaseFileStore(db: Db): FileStore {
  /** Stores a file given as pieces, each as it is (not joined first), in parts of at most FILE_PART_BYTES. */
  async function putPieces(pieces: readonly Uint8Array[], within?: Kysely<Database>): Promise<string> {
    const key = newKey();
    const size = pieces.reduce((n, piece) => n + piece.byteLength, 0);
    await writeParts(db, key, size, partsOf(pieces), 0, within);
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
  /** Stores files: the small ones in one insert, each other one as `put` does; a failure deletes those written outside a transaction. */
  async function putAll(files: readonly Uint8Array[], within?: Kysely<Database>): Promise<string[]> {
    const keyed = files.map((bytes) => ({ key: newKey(), bytes }));
    const small = keyed.filter((f) => f.bytes.byteLength <= SMALL_FILE_BYTES);
    const written: string[] = [];
    try {
      for (const f of keyed.filter((file) => file.bytes.byteLength > SMALL_FILE_BYTES)) {
        await writeParts(db, f.key, f.bytes.byteLength, partsOf([f.bytes]), 0, within);
        written.push(f.key);
      }
      await insertSmallFiles(within ?? db.kysely, small);
      return keyed.map((f) => f.key);
    } catch (error) {
      if (!within && written.length > 0) {
        await sql`delete from file_blobs where key in (${sql.join(written)})`.execute(db.kysely).catch(() => undefined);
      }
      throw error;
    }
  }
  return {
    kind: 'database',
    put: (bytes, within) => putPieces([bytes], within),
    putAll,
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
