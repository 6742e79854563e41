import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { DataStoreError, type DatastoreService, datastoreService, isTableName } from './datastore.service.ts';

let t: TestApp;
let store: DatastoreService;

beforeAll(async () => {
  t = await createTestApp();
  store = datastoreService(t.ctx);
});
afterAll(async () => {
  await t.close();
});

describe('data store', () => {
  it('inserts rows by key fields, then replaces those whose key comes again', async () => {
    const target = { table: 'prices', keyFields: ['code', 'country'] };
    await t.ctx.db.kysely.transaction().execute(async (trx) => {
      await store.upsert(
        trx,
        target,
        [
          { code: 'A', country: 'FR', price: 1 },
          { code: 'A', country: 'DE', price: 2 },
        ],
        null,
      );
    });
    const count = await t.ctx.db.kysely
      .transaction()
      .execute((trx) => store.upsert(trx, target, [{ code: 'A', country: 'FR', price: 10 }], null));
    expect(count).toBe(1);
    const rows = await store.rows('prices');
    expect(rows.map((r) => r.data)).toEqual(
      expect.arrayContaining([
        { code: 'A', country: 'FR', price: 10 },
        { code: 'A', country: 'DE', price: 2 },
      ]),
    );
    expect(rows).toHaveLength(2);
    expect(await store.tables()).toContain('prices');
  });

  it('keeps the last of two rows with the same key in one write', async () => {
    const target = { table: 'dupes', keyFields: ['id'] };
    await t.ctx.db.kysely.transaction().execute(async (trx) => {
      await store.upsert(
        trx,
        target,
        [
          { id: 1, v: 'first' },
          { id: 1, v: 'second' },
        ],
        null,
      );
    });
    expect((await store.rows('dupes')).map((r) => r.data)).toEqual([{ id: 1, v: 'second' }]);
  });

  it('writes nothing when the transaction rolls back, and names the row that lacks a key', async () => {
    const target = { table: 'atomic', keyFields: ['id'] };
    const attempt = t.ctx.db.kysely.transaction().execute(async (trx) => {
      await store.upsert(trx, { table: 'atomic_first', keyFields: ['id'] }, [{ id: 1 }], null);
      await store.upsert(trx, target, [{ id: 1 }, { other: 2 }], null);
    });
    await expect(attempt).rejects.toThrow(new DataStoreError('Data store atomic: row 2 has no value for key field id.'));
    expect(await store.tables()).not.toContain('atomic_first');
  });

  it('refuses table names that are not plain lower-case identifiers', async () => {
    for (const name of ['Prices', 'prices; drop table users', 'pg_catalog', '1abc', 'a'.repeat(64), '']) {
      expect(isTableName(name)).toBe(false);
      const attempt = t.ctx.db.kysely
        .transaction()
        .execute((trx) => store.upsert(trx, { table: name, keyFields: ['id'] }, [{ id: 1 }], null));
      await expect(attempt).rejects.toThrow(`Data store: ${name} is not a valid table name.`);
    }
    expect(isTableName('prices_2024')).toBe(true);
    const users = await t.ctx.db.kysely.selectFrom('users').select('id').execute();
    expect(Array.isArray(users)).toBe(true);
  });
});
