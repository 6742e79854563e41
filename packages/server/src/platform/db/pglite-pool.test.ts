import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Mutex } from './mutex.ts';
import { PGlitePool } from './pglite-pool.ts';

interface T {
  items: { name: string };
}

let open: PGlitePool[] = [];
afterEach(async () => {
  for (const p of open) await p.end();
  open = [];
});

async function kyselyOver(exclusive: boolean): Promise<Kysely<T>> {
  const pool = new PGlitePool(await PGlite.create('memory://'), { exclusive });
  open.push(pool);
  await pool.query('create table items (name text not null)');
  return new Kysely<T>({ dialect: new PostgresDialect({ pool: pool.kyselyPool() }) });
}

/** Two transactions at once: A inserts and commits after B has begun; B inserts and rolls back. */
async function interleave(db: Kysely<T>): Promise<string[]> {
  let bStarted!: () => void;
  const bHasBegun = new Promise<void>((r) => {
    bStarted = r;
  });
  const a = db.transaction().execute(async (trx) => {
    await trx.insertInto('items').values({ name: 'kept' }).execute();
    await Promise.race([bHasBegun, new Promise((r) => setTimeout(r, 50))]);
  });
  const b = db
    .transaction()
    .execute(async (trx) => {
      bStarted();
      await trx.insertInto('items').values({ name: 'dropped' }).execute();
      throw new Error('roll back');
    })
    .catch(() => undefined);
  await Promise.all([a, b]);
  const rows = await sql<{ name: string }>`select name from items order by name`.execute(db);
  return rows.rows.map((r) => r.name);
}

describe('PGlite pool', () => {
  it('keeps a committed transaction when another one rolls back at the same time', async () => {
    expect(await interleave(await kyselyOver(true))).toEqual(['kept']);
  });

  it('loses the committed rows without the mutex (why the pool serialises)', async () => {
    expect(await interleave(await kyselyOver(false))).not.toEqual(['kept']);
  });

  it('reports the affected rows of writes', async () => {
    const db = await kyselyOver(true);
    const r = await db
      .insertInto('items')
      .values([{ name: 'a' }, { name: 'b' }])
      .executeTakeFirst();
    expect(r.numInsertedOrUpdatedRows).toBe(2n);
    const d = await db.deleteFrom('items').where('name', '=', 'a').executeTakeFirst();
    expect(d.numDeletedRows).toBe(1n);
  });
});

describe('Mutex', () => {
  it('hands the lock over in request order', async () => {
    const m = new Mutex();
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3].map(async (n) => {
        const release = await m.acquire();
        order.push(n);
        await new Promise((r) => setTimeout(r, 5));
        release();
      }),
    );
    expect(order).toEqual([1, 2, 3]);
  });
});

describe('the embedded database’s memory', () => {
  it('opens with small shared buffers (its memory grows and is never given back)', async () => {
    const pool = await PGlitePool.open(undefined);
    open.push(pool);
    const { rows } = await pool.query("select current_setting('shared_buffers') as v");
    expect(rows[0]?.v).toBe('32MB');
  });
});

describe('the embedded database beside the sockets', () => {
  /** A connected pair of loopback sockets: what is written to one arrives at the other. */
  async function socketPair(): Promise<{ send: net.Socket; receive: net.Socket; close(): void }> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const send = net.connect((server.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => send.once('connect', resolve));
    const receive = await accepted;
    return { send, receive, close: () => [send.destroy(), receive.destroy(), server.close()] };
  }

  it('lets a socket be read between statements instead of after all of them', async () => {
    const pool = await PGlitePool.open(undefined);
    open.push(pool);
    const pair = await socketPair();
    try {
      let done = 0;
      const doneAtRead = new Promise<number>((resolve) => pair.receive.once('data', () => resolve(done)));
      const statements = Array.from({ length: 300 }, () =>
        pool.query('select count(*) from generate_series(1, 20000)').then(() => {
          done += 1;
        }),
      );
      pair.send.write('next chunk');
      const ranBefore = await doneAtRead;
      await Promise.all(statements);
      // Run back to back, all 300 (about a second of work) went before the read.
      expect(ranBefore).toBeLessThan(150);
    } finally {
      pair.close();
    }
  });
});

describe('bytes in the embedded database', () => {
  let pool: PGlitePool;
  beforeAll(async () => {
    pool = await PGlitePool.open(undefined);
    await pool.query('create table blobs (id int primary key, bytes bytea not null)');
  });
  afterAll(() => pool.end());

  it('go in and come back as they were: every byte value, a view into a larger buffer, nothing, a MiB', async () => {
    const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const larger = Buffer.from('..middle..');
    const view = new Uint8Array(larger.buffer, larger.byteOffset + 2, 6);
    const mib = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < mib.length; i++) mib[i] = (i * 7919) % 251;
    const values = [every, view, Buffer.alloc(0), mib];
    for (const [id, bytes] of values.entries()) await pool.query('insert into blobs values ($1, $2)', [id, bytes]);
    const { rows } = await pool.query('select id, bytes, md5(bytes) as md5 from blobs order by id');
    expect(rows.map((r) => Buffer.isBuffer(r.bytes))).toEqual([true, true, true, true]);
    expect(rows.map((r) => Buffer.compare(r.bytes as Buffer, Buffer.from(values[r.id as number] as Uint8Array)))).toEqual([
      0, 0, 0, 0,
    ]);
    expect(String(rows[1]?.bytes)).toBe('middle');
    // What the database itself holds, not only what the same code reads back.
    expect(rows[0]?.md5).toBe('e2c865db4162bed963bfaa9ef6ac18f0');
  });

  it('refuses what is not bytes for a bytea parameter', async () => {
    await expect(pool.query('insert into blobs values ($1, $2)', [99, 42])).rejects.toThrow('Invalid input for bytea type');
  });
});
