import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/test-db.ts';
import { binaryCopyColumn, int4, text } from './binary-copy.ts';
import { copyInBinary, copyOutBinary } from './copy-streams.ts';

describe.runIf(process.env.DATABASE_URL)('binary COPY (runs only when DATABASE_URL names a PostgreSQL server)', () => {
  let testDb: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    testDb = await createTestDb();
    await pool().query('create table copied_in (name text primary key, n int, b bytea)');
  });
  afterAll(async () => {
    await testDb?.drop();
  });
  const pool = () => {
    const p = testDb.db.pgPool;
    if (!p) throw new Error('no PostgreSQL pool');
    return p;
  };

  /**
   * Ends the server's process running the COPY whose statement is `like` once it has started: the
   * COPY must fail, and the pool go on answering. Its failure is taken at once, as it may come
   * before the kill's own answer does.
   */
  async function endsWhenKilled(copy: Promise<unknown>, like: string) {
    const failed = expect(copy).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const others = await pool().query<{ pid: number }>(
      'select pid from pg_stat_activity where query like $1 and pid <> pg_backend_pid()',
      [like],
    );
    expect(others.rows.length).toBe(1);
    await pool().query('select pg_terminate_backend($1)', [others.rows[0]?.pid]);
    await failed;
    expect((await pool().query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  }

  describe('out', () => {
    it('answers the bytes PostgreSQL holds, as a query of their hex text does', async () => {
      // One value larger than what the driver reads at once, then many that come several to a read.
      const bytes = [crypto.randomBytes(3 * 1024 * 1024 + 5), Buffer.alloc(0), crypto.randomBytes(1)];
      for (let i = 0; i < 40; i++) bytes.push(crypto.randomBytes(50_000 + i));
      await pool().query('create table copied (n int, b bytea)');
      for (const [n, b] of bytes.entries()) await pool().query('insert into copied values ($1, $2)', [n, b]);
      await pool().query('insert into copied values (1000, null)');
      const values = binaryCopyColumn(await copyOutBinary(pool(), 'select b from copied order by n'));
      const queried = await pool().query<{ b: Buffer | null }>('select b from copied order by n');
      expect(values.map((v) => v?.toString('hex') ?? null)).toEqual(queried.rows.map((r) => r.b?.toString('hex') ?? null));
      expect(values.slice(0, bytes.length).every((v, i) => v?.equals(bytes[i] as Buffer))).toBe(true);
    });

    it('throws the server’s error for a COPY that fails, and the pool goes on answering', async () => {
      const before = pool().totalCount;
      await expect(copyOutBinary(pool(), 'select b from no_such_table')).rejects.toThrow('no_such_table');
      await expect(copyOutBinary(pool(), 'select 1/0')).rejects.toThrow('division by zero');
      // The connections the failed COPYs used were closed, not handed back to be used again.
      expect(pool().totalCount).toBeLessThanOrEqual(before);
      expect((await pool().query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    });

    it('throws when the connection is lost during the COPY', async () => {
      await endsWhenKilled(copyOutBinary(pool(), 'select pg_sleep(5)::text::bytea'), 'copy (select pg_sleep%');
    });
  });

  describe('in', () => {
    it('stores the rows given, as a query of them reads them back, large values and NULLs among them', async () => {
      const large = crypto.randomBytes(3 * 1024 * 1024 + 5);
      const rows = [
        [text('large'), int4(1), large.subarray(5)],
        [text('empty'), int4(-7), Buffer.alloc(0)],
        [text('nothing ✓'), null, null],
      ];
      for (let i = 0; i < 40; i++) rows.push([text(`small ${i}`), int4(i), crypto.randomBytes(i * 100)]);
      expect(await copyInBinary(pool(), 'copied_in (name, n, b)', rows)).toBe(43);
      const stored = await pool().query<{ name: string; n: number | null; b: Buffer | null }>('select * from copied_in');
      const byName = new Map(stored.rows.map((r) => [r.name, r]));
      expect(byName.get('large')?.b?.equals(large.subarray(5))).toBe(true);
      expect(byName.get('empty')).toEqual({ name: 'empty', n: -7, b: Buffer.alloc(0) });
      expect(byName.get('nothing ✓')).toEqual({ name: 'nothing ✓', n: null, b: null });
      expect(byName.get('small 39')?.b?.equals(rows[42]?.[2] as Buffer)).toBe(true);
    });

    it('stores none of the rows when one is refused, throws the server’s error, and the pool goes on answering', async () => {
      const before = (await pool().query('select count(*)::int as n from copied_in')).rows[0].n;
      const rows = [
        [text('new one'), int4(1), crypto.randomBytes(2 * 1024 * 1024)],
        [text('large'), int4(2), null], // the primary key of a row stored above
        [text('after it'), int4(3), crypto.randomBytes(2 * 1024 * 1024)],
      ];
      await expect(copyInBinary(pool(), 'copied_in (name, n, b)', rows)).rejects.toThrow(/duplicate key/);
      await expect(copyInBinary(pool(), 'copied_in (name, n)', [[text('x'), text('not an integer')]])).rejects.toThrow();
      // A statement that fails before the COPY starts: no data is sent.
      await expect(copyInBinary(pool(), 'no_such_table (name)', [[text('x')], [Buffer.alloc(100_000)]])).rejects.toThrow(
        'no_such_table',
      );
      expect((await pool().query('select count(*)::int as n from copied_in')).rows[0].n).toBe(before);
      expect((await pool().query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    });

    it('throws when the connection is lost during the COPY', async () => {
      await pool().query(
        `create function slow_in() returns trigger language plpgsql as $$ begin perform pg_sleep(5); return new; end $$`,
      );
      await pool().query('create table slow_in (v int)');
      await pool().query('create trigger slow_in before insert on slow_in for each row execute function slow_in()');
      await endsWhenKilled(copyInBinary(pool(), 'slow_in (v)', [[int4(1)]]), 'copy slow_in%');
    });
  });
});
