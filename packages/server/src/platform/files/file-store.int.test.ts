import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/test-db.ts';
import { cachedFileStore } from './cached-file-store.ts';
import { databaseFileStore, FILE_PART_BYTES } from './database-file-store.ts';
import type { FileStore } from './file-store.ts';
import { localFileStore } from './local-file-store.ts';

let testDb: Awaited<ReturnType<typeof createTestDb>>;
let dir: string;
beforeAll(async () => {
  testDb = await createTestDb();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gdb-files-'));
});
afterAll(async () => {
  await testDb.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What the stores hold: the files under the local folder (temporary ones included) and the database's rows. */
async function leftovers() {
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  const rows = await sql<{ n: number }>`select count(*)::int as n from file_blobs`.execute(testDb.db.kysely);
  return { files, rows: Number(rows.rows[0]?.n) };
}

/** Bytes the stores hold, in the local folder (temporary files included) and in the database's rows. */
async function storedBytes(): Promise<number> {
  const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const local = entries.reduce((n, e) => n + fs.statSync(path.join(e.parentPath, e.name)).size, 0);
  const rows = await sql<{ n: number }>`select coalesce(sum(length(bytes)), 0)::int as n from file_blobs`.execute(
    testDb.db.kysely,
  );
  return local + Number(rows.rows[0]?.n);
}

/** The chunks given, one at a time, then the error given if any. */
async function* streamOf(chunks: readonly Uint8Array[], error?: Error): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
  if (error) throw error;
}

describe.each([
  ['local', () => localFileStore(dir)],
  ['database', () => databaseFileStore(testDb.db)],
  ['cached database', () => cachedFileStore(databaseFileStore(testDb.db), 1024 * 1024)],
] as const)('%s file store', (_kind, make: () => FileStore) => {
  it('keeps the bytes it acknowledged and deletes them on request', async () => {
    const store = make();
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const key = await store.put(bytes);
    expect([...(await store.get(key))]).toEqual([...bytes]);
    await store.delete(key);
    await expect(store.get(key)).rejects.toThrow();
  });

  it('stores a file in a transaction given: kept when it commits; in the database, gone when it fails', async () => {
    const store = make();
    const bytes = crypto.randomBytes(3 * 1024);
    const key = await testDb.db.kysely.transaction().execute((trx) => store.put(bytes, trx));
    expect((await store.get(key)).equals(bytes)).toBe(true);
    let inside = '';
    const failed = testDb.db.kysely.transaction().execute(async (trx) => {
      inside = await store.put(bytes, trx);
      throw new Error('rolled back');
    });
    await expect(failed).rejects.toThrow('rolled back');
    if (store.kind === 'database') {
      const rows = await sql<{ n: number }>`select count(*)::int as n from file_blobs where key = ${inside}`.execute(
        testDb.db.kysely,
      );
      expect(Number(rows.rows[0]?.n)).toBe(0);
    } else await store.delete(inside);
    await store.delete(key);
  });

  it('stores many files at once, small, empty and large, each under its own key, in a transaction given', async () => {
    const store = make();
    const under = crypto.randomBytes(4096);
    const files = [
      crypto.randomBytes(10),
      new Uint8Array(0),
      crypto.randomBytes(FILE_PART_BYTES + 5),
      new Uint8Array(under.buffer, under.byteOffset + 7, 300),
    ];
    const keys = await testDb.db.kysely.transaction().execute((trx) => store.putAll(files, trx));
    expect(new Set(keys).size).toBe(files.length);
    for (const [i, key] of keys.entries()) expect(Buffer.from(await store.get(key)).equals(files[i] as Uint8Array)).toBe(true);
    await Promise.all(keys.map((key) => store.delete(key)));
    const none = await store.putAll([]);
    expect(none).toEqual([]);
  });

  it('leaves none of many files when storing them fails; in the database, none when their transaction fails', async () => {
    const store = make();
    const before = await leftovers();
    // A large file is written first, then the small ones: a key given twice fails their insert.
    const files = [crypto.randomBytes(FILE_PART_BYTES + 1), crypto.randomBytes(20)];
    if (store.kind === 'database') {
      const failed = testDb.db.kysely.transaction().execute(async (trx) => {
        await store.putAll(files, trx);
        throw new Error('rolled back');
      });
      await expect(failed).rejects.toThrow('rolled back');
      expect(await leftovers()).toEqual(before);
      await sql`create or replace function refuse_small_blob() returns trigger language plpgsql as $$
        begin if length(new.bytes) < 100 then raise exception 'refused'; end if; return new; end $$`.execute(testDb.db.kysely);
      await sql`create trigger refuse_small_blob before insert on file_blobs for each row execute function refuse_small_blob()`.execute(
        testDb.db.kysely,
      );
      try {
        await expect(store.putAll(files)).rejects.toThrow('refused');
      } finally {
        await sql`drop trigger refuse_small_blob on file_blobs`.execute(testDb.db.kysely);
      }
    } else {
      const locked = path.join(dir, 'no-space');
      fs.mkdirSync(locked, { recursive: true });
      const failing = localFileStore(path.join(locked, 'file-that-is-a-file'));
      fs.writeFileSync(path.join(locked, 'file-that-is-a-file'), 'not a folder');
      await expect(failing.putAll(files)).rejects.toThrow();
      fs.rmSync(locked, { recursive: true, force: true });
    }
    expect(await leftovers()).toEqual(before);
  });

  it('gives back a large file byte for byte', async () => {
    const store = make();
    const bytes = crypto.randomBytes(3 * FILE_PART_BYTES + 7);
    const key = await store.put(bytes);
    if (store.kind === 'database') {
      // In parts of at most FILE_PART_BYTES, one row each.
      const parts = await sql<{
        size: number;
      }>`select length(bytes) as size from file_blobs where key = ${key} order by part`.execute(testDb.db.kysely);
      expect(parts.rows.map((p) => Number(p.size))).toEqual([FILE_PART_BYTES, FILE_PART_BYTES, FILE_PART_BYTES, 7]);
    }
    expect(Buffer.from(await store.get(key)).equals(bytes)).toBe(true);
    await store.delete(key);
    await expect(store.get(key)).rejects.toThrow();
  });

  it('stores a stream of many pieces, small and empty ones among them, byte for byte', async () => {
    const store = make();
    // More pieces than one system call writes at once (1,024), so the writes come back short.
    const pieces = Array.from({ length: 3000 }, (_, i) => crypto.randomBytes(i % 7 === 0 ? 0 : (i * 37) % 700));
    const key = await store.putStream(streamOf(pieces));
    expect(Buffer.from(await store.get(key)).equals(Buffer.concat(pieces))).toBe(true);
    await store.delete(key);
  });

  it('stores the bytes of a view, not the rest of the buffer under it', async () => {
    const store = make();
    const under = crypto.randomBytes(64 * 1024);
    const view = new Uint8Array(under.buffer, under.byteOffset + 100, 1000);
    const key = await store.put(view);
    expect(Buffer.from(await store.get(key)).equals(view)).toBe(true);
    await store.delete(key);
  });

  it('stores a file written piece by piece, and nothing of one aborted', async () => {
    const store = make();
    const pieces = [crypto.randomBytes(10), new Uint8Array(0), crypto.randomBytes(FILE_PART_BYTES + 3), crypto.randomBytes(5)];
    const before = await leftovers();
    const writer = store.writer();
    for (const piece of pieces) writer.write(piece);
    const key = await writer.done();
    expect(Buffer.from(await store.get(key)).equals(Buffer.concat(pieces))).toBe(true);
    if (store.kind === 'database') {
      // Each piece in parts of at most FILE_PART_BYTES, as it came (not joined first); every row names the file's size.
      const parts = await sql<{ length: number; size: number }>`
        select length(bytes) as length, size from file_blobs where key = ${key} order by part`.execute(testDb.db.kysely);
      expect(parts.rows.map((r) => Number(r.length))).toEqual([10, FILE_PART_BYTES, 3, 5]);
      expect(new Set(parts.rows.map((r) => Number(r.size)))).toEqual(new Set([FILE_PART_BYTES + 18]));
    }
    await store.delete(key);

    const empty = store.writer();
    const none = await empty.done();
    expect((await store.get(none)).length).toBe(0);
    await store.delete(none);

    const aborted = store.writer();
    aborted.write(crypto.randomBytes(FILE_PART_BYTES * 2));
    aborted.write(crypto.randomBytes(7));
    await aborted.abort();
    expect(await leftovers()).toEqual(before);
  });

  it('stores a file from a stream while it comes, not once it has ended', async () => {
    const store = make();
    const before = await storedBytes();
    const chunks = [crypto.randomBytes(10), new Uint8Array(0), crypto.randomBytes(FILE_PART_BYTES + 3)];
    const storedMeanwhile: number[] = [];
    /** What is stored once `n` bytes are (or after a second), while the stream has not ended. */
    const storedOnce = async (n: number) => {
      const until = Date.now() + 1000;
      let stored = (await storedBytes()) - before;
      while (stored < n && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        stored = (await storedBytes()) - before;
      }
      return stored;
    };
    async function* watched() {
      yield* chunks;
      storedMeanwhile.push(await storedOnce(FILE_PART_BYTES));
      yield crypto.randomBytes(FILE_PART_BYTES - 13);
      storedMeanwhile.push(await storedOnce(FILE_PART_BYTES));
    }
    const sent: Uint8Array[] = [];
    const key = await store.putStream(
      (async function* () {
        for await (const chunk of watched()) {
          sent.push(chunk);
          yield chunk;
        }
      })(),
    );
    // More than a part was stored before the stream ended, and all of it before the key came back.
    expect(storedMeanwhile[0]).toBeGreaterThanOrEqual(FILE_PART_BYTES);
    expect(storedMeanwhile[1]).toBeGreaterThanOrEqual(FILE_PART_BYTES);
    expect(Buffer.from(await store.get(key)).equals(Buffer.concat(sent))).toBe(true);
    if (store.kind === 'database') {
      // Parts of FILE_PART_BYTES whatever the chunks, every row naming the file's size.
      const parts = await sql<{ length: number; size: number }>`
        select length(bytes) as length, size from file_blobs where key = ${key} order by part`.execute(testDb.db.kysely);
      expect(parts.rows.map((r) => [Number(r.length), Number(r.size)])).toEqual([
        [FILE_PART_BYTES, 2 * FILE_PART_BYTES],
        [FILE_PART_BYTES, 2 * FILE_PART_BYTES],
      ]);
    }
    await store.delete(key);
    const empty = await store.putStream(streamOf([]));
    expect((await store.get(empty)).length).toBe(0);
    await store.delete(empty);
    const small = await store.putStream(streamOf([Buffer.from('a,b\n'), Buffer.from('1,2\n')]));
    expect((await store.get(small)).toString()).toBe('a,b\n1,2\n');
    await store.delete(small);
  });

  it('leaves nothing of a stream that fails, and throws its error', async () => {
    const store = make();
    const before = await leftovers();
    const failing = streamOf([crypto.randomBytes(2 * FILE_PART_BYTES + 5)], new Error('the sender went away'));
    await expect(store.putStream(failing)).rejects.toThrow('the sender went away');
    expect(await leftovers()).toEqual(before);
    await expect(store.putStream(streamOf([], new Error('nothing sent')))).rejects.toThrow('nothing sent');
    expect(await leftovers()).toEqual(before);
  });

  it('refuses keys that could leave its folder', async () => {
    const store = make();
    await expect(store.get('../../etc/passwd')).rejects.toThrow('Invalid file key');
    await expect(store.delete('/etc/passwd')).rejects.toThrow('Invalid file key');
  });
});

describe('cached file store', () => {
  /** A cached store over the database one, counting the reads that reach the database. */
  function counted(maxBytes: number) {
    const inner = databaseFileStore(testDb.db);
    const reads: string[] = [];
    const store = cachedFileStore(
      {
        ...inner,
        get: (key) => {
          reads.push(key);
          return inner.get(key);
        },
      },
      maxBytes,
    );
    return { store, reads };
  }

  it('answers a file it stored or read from memory, and each caller gets bytes of its own', async () => {
    const { store, reads } = counted(1000);
    const bytes = Buffer.from('code,price\nA,1\n');
    const key = await store.put(bytes);
    bytes.fill(0);
    const first = await store.get(key);
    expect(first.toString()).toBe('code,price\nA,1\n');
    first.fill(0);
    expect((await store.get(key)).toString()).toBe('code,price\nA,1\n');
    expect(reads).toEqual([]);
  });

  it('keeps no more than its bound, dropping the least recently used first, and never a large file', async () => {
    const { store, reads } = counted(1000);
    const a = await store.put(Buffer.alloc(200, 1));
    const b = await store.put(Buffer.alloc(200, 2));
    const c = await store.put(Buffer.alloc(200, 3));
    await store.get(a);
    const d = await store.put(Buffer.alloc(200, 4));
    const e = await store.put(Buffer.alloc(200, 5));
    // Five files fill the 1,000 bytes; a sixth drops the least recently used: b (a was read since).
    await store.put(Buffer.alloc(200, 6));
    for (const key of [a, c, d, e]) await store.get(key);
    expect(reads).toEqual([]);
    expect([...(await store.get(b))].every((x) => x === 2)).toBe(true);
    expect(reads).toEqual([b]);
    // Above a quarter of the bound: read from the database every time.
    const large = await store.put(Buffer.alloc(251, 7));
    await store.get(large);
    await store.get(large);
    expect(reads).toEqual([b, large, large]);
  });

  it('forgets a file it deletes', async () => {
    const { store } = counted(1000);
    const key = await store.put(Buffer.from('gone'));
    await store.delete(key);
    await expect(store.get(key)).rejects.toThrow('No stored file');
  });
});
