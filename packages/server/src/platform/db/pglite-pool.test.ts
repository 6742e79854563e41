import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
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
