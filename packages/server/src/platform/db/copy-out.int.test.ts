import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/test-db.ts';
import { binaryCopyColumn, copyOutBinary } from './copy-out.ts';

describe.runIf(process.env.DATABASE_URL)('binary COPY out (runs only when DATABASE_URL names a PostgreSQL server)', () => {
  let testDb: Awaited<ReturnType<typeof createTestDb>>;
  beforeAll(async () => {
    testDb = await createTestDb();
  });
  afterAll(async () => {
    await testDb?.drop();
  });
  const pool = () => {
    const p = testDb.db.pgPool;
    if (!p) throw new Error('no PostgreSQL pool');
    return p;
  };

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
    const killer = await pool().connect();
    const copying = copyOutBinary(pool(), 'select pg_sleep(5)::text::bytea');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const others = await killer.query<{ pid: number }>(
      "select pid from pg_stat_activity where query like 'copy (select pg_sleep%' and pid <> pg_backend_pid()",
    );
    killer.release();
    expect(others.rows.length).toBe(1);
    await pool().query('select pg_terminate_backend($1)', [others.rows[0]?.pid]);
    await expect(copying).rejects.toThrow();
    expect((await pool().query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
