import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../../../test/test-db.ts';
import { errorMessage } from '../error-message.ts';
import { newId } from '../ids.ts';
import { isUniqueViolation } from './errors.ts';
import type { Db } from './index.ts';
import { type Executor, inTransaction } from './transaction.ts';

let testDb: Awaited<ReturnType<typeof createTestDb>>;
let db: Db;
beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(async () => {
  await testDb.drop();
});

const badge = (name: string) => ({ id: newId(), name, type: 'group' as const, color: null, metadata: null });
// Raw rows: these tests are about what the engine answers to them.
const insert = (k: Executor, name: string) => k.insertInto('tags').values(badge(name)).execute();
const names = async () => (await db.kysely.selectFrom('tags').select('name').orderBy('name').execute()).map((r) => r.name);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => new Error('no error'),
    (error: unknown) => error,
  );

describe('isUniqueViolation', () => {
  it('recognises a duplicate key from the engine, and nothing else', async () => {
    await insert(db.kysely, 'Twice');
    expect(isUniqueViolation(await failure(insert(db.kysely, 'twice')))).toBe(true);
    const notNull = await failure(
      db.kysely
        .insertInto('tags')
        .values({ ...badge('x'), name: null as unknown as string })
        .execute(),
    );
    expect(isUniqueViolation(notNull)).toBe(false);
    for (const other of [null, undefined, '23505', { code: 23505 }, new Error('23505')])
      expect(isUniqueViolation(other)).toBe(false);
  });
});

describe('inTransaction', () => {
  it('commits together, and rolls everything back when the work throws', async () => {
    await inTransaction(db.kysely, async (trx) => {
      await insert(trx, 'a1');
      await insert(trx, 'a2');
    });
    await expect(
      inTransaction(db.kysely, async (trx) => {
        await insert(trx, 'b1');
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await names()).toEqual(expect.arrayContaining(['a1', 'a2']));
    expect(await names()).not.toContain('b1');
  });

  it("joins the caller's transaction instead of opening another", async () => {
    await expect(
      db.kysely.transaction().execute(async (outer) => {
        await inTransaction(outer, async (trx) => {
          expect(trx).toBe(outer);
          await insert(trx, 'c1');
        });
        throw new Error('caller gives up');
      }),
    ).rejects.toThrow('caller gives up');
    expect(await names()).not.toContain('c1');
  });
});

describe('errorMessage', () => {
  it("answers an error's message, else the thrown value as text", () => {
    expect(errorMessage(new TypeError('bad type'))).toBe('bad type');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});
