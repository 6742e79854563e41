import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/test-db.ts';
import { copyInBinary, int4, text } from './copy-in.ts';

describe.runIf(process.env.DATABASE_URL)('binary COPY in (runs only when DATABASE_URL names a PostgreSQL server)', () => {
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
    // A statement that fails before the COPY starts: the data already sent after it is ignored.
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
    const copying = copyInBinary(pool(), 'slow_in (v)', [[int4(1)]]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const others = await pool().query<{ pid: number }>(
      "select pid from pg_stat_activity where query like 'copy slow_in%' and pid <> pg_backend_pid()",
    );
    expect(others.rows.length).toBe(1);
    await pool().query('select pg_terminate_backend($1)', [others.rows[0]?.pid]);
    await expect(copying).rejects.toThrow();
    expect((await pool().query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
