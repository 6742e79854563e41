import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { importKit } from '../imports/imports.test-kit.ts';
import { DEMO_COUNTRIES, DEMO_CSV, DEMO_DATA_SUB_KIND, DEMO_MASTER, DEMO_TABLE, seedDemo } from './demo.seed.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.services.imports.startWorking({ concurrency: 1 });
});
afterAll(async () => {
  await t.close();
});

describe('the demo data of a new install', () => {
  it('creates a master with two country pipelines once, and a country pipeline imports the demo file', async () => {
    expect(await seedDemo({ ctx: t.ctx, ...t.services })).toBe(true);
    expect(await seedDemo({ ctx: t.ctx, ...t.services })).toBe(false);

    const manager = await t.signedIn(['manager']);
    const masters = (await t.call('GET', '/pipelines/masters', { token: manager.token })).body.data;
    expect(masters.map((p: { name: string }) => p.name)).toEqual([DEMO_MASTER]);
    const countries = (await t.call('GET', `/pipelines/pipelinesOfMaster?id=${masters[0]._id}`, { token: manager.token })).body
      .data;
    expect(countries.map((p: { name: string }) => p.name).sort()).toEqual(DEMO_COUNTRIES.map((c) => c.name).sort());
    const france = countries.find((p: { name: string }) => p.name === 'Dealers France');
    expect(france).toMatchObject({
      locale: { language: 'fr', country: 'FR' },
      datakind: { isDealer: true },
      dataSources: [{ dataSubKind: DEMO_DATA_SUB_KIND, connectorType: 'manual', contentType: 'csv' }],
    });
    expect(france.brand).not.toBeNull();
    expect(france.productLine).not.toBeNull();

    // A user given the French pipeline uploads the demo file and runs it.
    const kit = await importKit(t);
    const user = await t.signedIn(['user']);
    await kit.assign(user.user.id, france._id);
    const uploadId = await kit.upload(
      user.token,
      france._id,
      DEMO_DATA_SUB_KIND,
      `${DEMO_CSV}\nFR001,Duplicate,Paris,75001,dup@example.test,1\n`,
    );
    const status = (await t.call('GET', `/uploads/status?ids=${uploadId}`, { token: user.token })).body.data;
    expect(status[0]).toMatchObject({ status: 'valid' });

    const res = await t.call('POST', '/imports', { token: user.token, body: { pipelineId: france._id, kind: 'immediate' } });
    expect(res.status).toBe(200);
    const done = await kit.waitFor(res.body.data.importId, ['done', 'failed']);
    expect(done.state).toBe('done');
    const messages = await kit.messages(res.body.data.importId);
    expect(messages).toEqual(
      expect.arrayContaining([
        'Dealer FR001 appears twice; the first row is kept.',
        '3 dealers mapped for Dealers France.',
        `Data store ${DEMO_TABLE}: 3 rows upserted.`,
      ]),
    );
    const stored = await t.services.datastore.rows(DEMO_TABLE);
    expect(stored.map((r) => r.data)).toContainEqual({
      dealerCode: 'FR001',
      name: 'Garage du Centre',
      city: 'LYON',
      postalCode: '69002',
      email: 'contact@garage-centre.example',
      vehicles: 42,
      country: 'Dealers France',
    });
  });

  it('refuses rows the data model does not allow, naming their row', async () => {
    const kit = await importKit(t);
    const manager = await t.signedIn(['manager']);
    const masters = (await t.call('GET', '/pipelines/masters', { token: manager.token })).body.data;
    const uploadId = await kit.upload(manager.token, masters[0]._id, DEMO_DATA_SUB_KIND, 'dealerCode,name,city\nbad,X,Y\n');
    const status = (await t.call('GET', `/uploads/status?ids=${uploadId}`, { token: manager.token })).body.data;
    expect(status[0]).toMatchObject({ status: 'invalid' });
    const logs = (await t.call('GET', `/logs/uploads?ids=${uploadId}`, { token: manager.token })).body.data;
    expect(logs.map((l: { message: string }) => l.message).join('\n')).toMatch(/row 1\b.*dealerCode/is);
  });
});
