import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await t.signedIn(['user'])).token;
});
afterAll(async () => {
  await t.close();
});

describe('reference lists', () => {
  it('serves brands, locales, product lines and datakinds to any signed-in role', async () => {
    const brands = await t.call('GET', '/brands/list', { token });
    expect(brands.body.data.length).toBeGreaterThan(0);
    expect(brands.body.data[0]).toEqual({ _id: expect.any(String), name: expect.any(String) });

    const locales = await t.call('GET', '/locales/list', { token });
    expect(locales.body.data).toContainEqual({ _id: expect.any(String), language: 'fr', country: 'FR', name: 'French (France)' });

    const lines = await t.call('GET', '/productlines/list', { token });
    expect(lines.body.data.length).toBeGreaterThan(0);

    const kinds = await t.call('GET', '/datakinds/list', { token });
    const dealers = kinds.body.data.filter((k: { isDealer: boolean }) => k.isDealer);
    expect(dealers).toHaveLength(1);
  });

  it('refuses anonymous callers', async () => {
    const res = await t.call('GET', '/brands/list');
    expect(res.status).toBe(401);
  });

  it('seeds idempotently', async () => {
    const count = async () =>
      (
        await t.ctx.db.kysely
          .selectFrom('locales')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = Number(await count());
    await t.services.reference.seed();
    await t.services.reference.seed();
    expect(Number(await count())).toBe(before);
  });
});
