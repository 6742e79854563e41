import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';
import { REFERENCE_TTL_MS } from './reference.service.ts';

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

describe('reference lists read from memory', () => {
  it('are read from the database once per REFERENCE_TTL_MS, again after that or a seed', async () => {
    const k = t.ctx.db.kysely;
    const before = await t.services.reference.brands();
    // A brand written behind the service's back (only the seed writes these tables).
    await k.insertInto('brands').values({ id: newId(), name: 'Zz behind the back' }).execute();
    const names = async () => (await t.services.reference.brands()).map((b) => b.name);
    expect(await names()).toEqual(before.map((b) => b.name));
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + REFERENCE_TTL_MS);
    try {
      expect(await names()).toContain('Zz behind the back');
    } finally {
      clock.mockRestore();
    }
    await k.deleteFrom('brands').where('name', '=', 'Zz behind the back').execute();
    await t.services.reference.seed();
    expect(await names()).not.toContain('Zz behind the back');
  });

  it('gives each caller an array of its own', async () => {
    const first = await t.services.reference.locales();
    first.length = 0;
    expect((await t.services.reference.locales()).length).toBeGreaterThan(0);
  });
});
