import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignPipeline } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';
import type { NewPipeline } from './pipelines.service.ts';

let t: TestApp;
let ref: { brand: string; locale: string; productLine: string; dealer: string; product: string };
const source = {
  dataSubKind: 'rows',
  connectorType: 'manual' as const,
  dataFromMaster: false,
  contentType: 'csv' as const,
  dataModel: null,
};
const sink = { name: 'out', format: 'CSV' as const, target: null };

async function pipeline(p: Partial<NewPipeline> & { name: string }) {
  return t.services.pipelines.create({
    isMaster: false,
    dataSources: [source],
    dataSinks: [sink],
    brand: ref.brand,
    locale: ref.locale,
    productLine: ref.productLine,
    datakind: ref.dealer,
    ...p,
  });
}

const assign = (userId: string, pipelineId: string, isActive = true) => assignPipeline(t, userId, pipelineId, isActive);

beforeAll(async () => {
  t = await createTestApp();
  const [brands, locales, lines, kinds] = await Promise.all([
    t.services.reference.brands(),
    t.services.reference.locales(),
    t.services.reference.productLines(),
    t.services.reference.datakinds(),
  ]);
  ref = {
    brand: brands[0]?._id ?? '',
    locale: locales[0]?._id ?? '',
    productLine: lines[0]?._id ?? '',
    dealer: kinds.find((k) => k.isDealer)?._id ?? '',
    product: kinds.find((k) => !k.isDealer)?._id ?? '',
  };
});
afterAll(async () => {
  await t.close();
});

describe('pipelines for the import screens', () => {
  it('lists masters first then by name, with reference data as objects', async () => {
    const master = await pipeline({ name: 'zeta master', isMaster: true });
    await pipeline({ name: 'Beta country', masterPipeline: master });
    await pipeline({ name: 'alpha country', masterPipeline: master });
    const { token } = await t.signedIn(['manager']);
    const res = await t.call('GET', '/pipelines', { token });
    expect(res.status).toBe(200);
    const names = res.body.data.map((p: { name: string }) => p.name);
    expect(names.slice(0, 3)).toEqual(['zeta master', 'alpha country', 'Beta country']);
    expect(res.body.data[0]).toMatchObject({
      isMaster: true,
      brand: { _id: ref.brand },
      datakind: { _id: ref.dealer, isDealer: true },
    });

    const masters = await t.call('GET', '/pipelines/masters', { token });
    expect(masters.body.data.map((p: { _id: string }) => p._id)).toContain(master);
    const countries = await t.call('GET', `/pipelines/pipelinesOfMaster?id=${master}`, { token });
    expect(countries.body.data.map((p: { name: string }) => p.name)).toEqual(['alpha country', 'Beta country']);
  });

  it('shows a user only its assigned, active, dealer pipelines, in their production version', async () => {
    const { user, token } = await t.signedIn(['user']);
    const family = newId();
    const v1 = await pipeline({ name: 'dealers FR', familyId: family, version: 1, vLocked: true });
    await pipeline({ name: 'dealers FR', familyId: family, version: 2, vLocked: false });
    const notDealer = await pipeline({ name: 'products FR', datakind: ref.product });
    const inactive = await pipeline({ name: 'inactive FR' });
    await pipeline({ name: 'not assigned' });
    await assign(user.id, v1);
    await assign(user.id, notDealer);
    await assign(user.id, inactive, false);

    const res = await t.call('GET', '/users/pipelines', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.pipelines.map((p: { _id: string; version: number }) => [p._id, p.version])).toEqual([[v1, 1]]);
    expect(res.body.data.staticTypes.brands.length).toBeGreaterThan(0);
    expect(res.body.data.staticTypes.locales[0]).toHaveProperty('language');

    expect((await t.call('GET', `/pipelines/id?id=${v1}`, { token })).status).toBe(200);
    expect((await t.call('GET', `/pipelines/id?id=${inactive}`, { token })).status).toBe(403);
    expect((await t.call('GET', '/pipelines', { token })).status).toBe(403);
  });

  it("follows new versions for a user: each family's newest locked version, else its newest, under any version of its master", async () => {
    const { user, token } = await t.signedIn(['user']);
    const [masterFamily, franceFamily, spainFamily] = [newId(), newId(), newId()];
    const m1 = await pipeline({ name: 'cars', isMaster: true, familyId: masterFamily, vLocked: true });
    const m2 = await pipeline({ name: 'cars', isMaster: true, familyId: masterFamily, version: 2, vLocked: true });
    await pipeline({ name: 'cars', isMaster: true, familyId: masterFamily, version: 3 });
    const france1 = await pipeline({ name: 'cars FR', masterPipeline: m1, familyId: franceFamily, vLocked: true });
    await pipeline({ name: 'cars FR', masterPipeline: m2, familyId: franceFamily, version: 2 });
    await pipeline({ name: 'cars ES', masterPipeline: m1, familyId: spainFamily, vLocked: true });
    const spain2 = await pipeline({ name: 'cars ES', masterPipeline: m2, familyId: spainFamily, version: 2, vLocked: true });
    for (const id of [m1, france1, spain2]) await assign(user.id, id);

    const ids = async (url: string) => (await t.call('GET', url, { token })).body.data.map((p: { _id: string }) => p._id);
    expect(await ids('/pipelines/masters')).toEqual([m2]);
    expect(await ids(`/pipelines/pipelinesOfMaster?id=${m2}`)).toEqual([spain2, france1]);
    expect(await ids(`/pipelines/pipelinesOfMaster?id=${m1}`)).toEqual([spain2, france1]);
    const mine = (await t.call('GET', '/users/pipelines', { token })).body.data.pipelines.map((p: { _id: string }) => p._id);
    expect(mine).toEqual([m2, spain2, france1]);
    // A manager sees the countries pointing at the version asked, every version of them.
    const manager = await t.signedIn(['manager']);
    const asManager = await t.call('GET', `/pipelines/pipelinesOfMaster?id=${m2}`, { token: manager.token });
    expect(asManager.body.data.map((p: { name: string; version: number }) => [p.name, p.version])).toEqual([
      ['cars ES', 2],
      ['cars FR', 2],
    ]);
  });

  it('lifts the dealer-only rule for a user with unrestricted upload', async () => {
    const user = await t.createUser(['user'], { unrestrictedUpload: true });
    const token = await t.login(user.user_name);
    const products = await pipeline({ name: 'products DE', datakind: ref.product });
    await assign(user.id, products);
    const res = await t.call('GET', '/users/pipelines', { token });
    expect(res.body.data.pipelines.map((p: { _id: string }) => p._id)).toEqual([products]);
  });

  it('hides pipelines whose read badges the caller lacks, except from a super-admin', async () => {
    const tag = newId();
    const secret = await pipeline({ name: 'badge only' });
    await t.ctx.db.kysely
      .updateTable('pipelines')
      .set({ tags: JSON.stringify({ read: [[tag]], write: [] }) })
      .where('id', '=', secret)
      .execute();
    const manager = await t.signedIn(['manager']);
    const ids = (await t.call('GET', '/pipelines', { token: manager.token })).body.data.map((p: { _id: string }) => p._id);
    expect(ids).not.toContain(secret);
    expect((await t.call('GET', `/pipelines/id?id=${secret}`, { token: manager.token })).status).toBe(403);
    const boss = await t.signedIn(['super-admin']);
    expect((await t.call('GET', `/pipelines/id?id=${secret}`, { token: boss.token })).status).toBe(200);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const { token } = await t.signedIn(['manager']);
    expect((await t.call('GET', `/pipelines/id?id=${newId()}`, { token })).status).toBe(404);
    expect((await t.call('GET', '/pipelines/id?id=not-a-uuid', { token })).status).toBe(404);
  });
});

describe('pipelines service', () => {
  it('hands other modules views and named operations, never its repository or rows', async () => {
    expect(t.services.pipelines).not.toHaveProperty('repo');
    expect(t.services.pipelines).not.toHaveProperty('toView');
    const id = await pipeline({ name: 'stored one' });
    expect(await t.services.pipelines.stored(id)).toMatchObject({ _id: id, name: 'stored one', dataSources: expect.any(Array) });
    expect(await t.services.pipelines.stored(newId())).toBeUndefined();
    expect(await t.services.pipelines.stored('not-a-uuid')).toBeUndefined();
  });
});
