import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKit } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import {
  DEMO_COMPONENT,
  DEMO_COUNTRIES,
  DEMO_CSV,
  DEMO_DATA_SUB_KIND,
  DEMO_MASTER,
  DEMO_PORT_MODEL,
  DEMO_TABLE,
  seedDemo,
} from './demo.seed.ts';

let t: TestApp;
/** What seeding answered on the new install, then once more: every test here works on the demo data. */
let seeded: boolean[];

beforeAll(async () => {
  t = await createTestApp();
  await t.services.imports.startWorking({ concurrency: 1 });
  seeded = [await seedDemo({ ctx: t.ctx, ...t.services }), await seedDemo({ ctx: t.ctx, ...t.services })];
});
afterAll(async () => {
  await t.close();
});

describe('the demo data of a new install', () => {
  it('creates a master with its country pipelines once, and a country pipeline imports the demo file', async () => {
    expect(seeded).toEqual([true, false]);

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
      `${DEMO_CSV}\nFR001,Duplicate,Paris,75001,dup@example.test,1,\n`,
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
      openedOn: '2019-04-01',
      country: 'Dealers France',
    });
    // The dealer whose optional fields were left empty: no value, carried as null.
    expect(stored.map((r) => r.data)).toContainEqual(
      expect.objectContaining({ dealerCode: 'FR003', postalCode: null, email: null, vehicles: null, openedOn: null }),
    );
  });

  it('imports a workbook into Dealers Spain, its dates as the sheet shows them', async () => {
    const manager = await t.signedIn(['manager']);
    const masters = (await t.call('GET', '/pipelines/masters', { token: manager.token })).body.data;
    const countries = (await t.call('GET', `/pipelines/pipelinesOfMaster?id=${masters[0]._id}`, { token: manager.token })).body
      .data;
    const spain = countries.find((p: { name: string }) => p.name === 'Dealers Spain');
    expect(spain.dataSources).toMatchObject([{ dataSubKind: DEMO_DATA_SUB_KIND, contentType: 'excel' }]);

    // A workbook as a spreadsheet program writes it: a title row, then the header, a date cell formatted as a date.
    const sheet = XLSX.utils.aoa_to_sheet(
      [
        ['Dealers of Spain'],
        ['dealerCode', 'name', 'city', 'postalCode', 'vehicles', 'openedOn'],
        ['ES001', 'Motor Madrid', 'Madrid', '28001', 12, new Date(Date.UTC(2020, 2, 1))],
        ['ES002', 'Autos Sol', 'Sevilla', '41001', 3, null],
      ],
      { cellDates: true, dateNF: 'dd/mm/yyyy', UTC: true },
    );
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Dealers');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx', cellDates: false }));
    const kit = await importKit(t);
    const uploadId = await kit.upload(manager.token, spain._id, DEMO_DATA_SUB_KIND, bytes, 'dealers.xlsx');
    const status = (await t.call('GET', `/uploads/status?ids=${uploadId}`, { token: manager.token })).body.data;
    expect(status[0]).toMatchObject({ status: 'valid' });

    const res = await t.call('POST', '/imports', { token: manager.token, body: { pipelineId: spain._id, kind: 'immediate' } });
    expect(res.status).toBe(200);
    expect((await kit.waitFor(res.body.data.importId, ['done', 'failed'])).state).toBe('done');
    const stored = (await t.services.datastore.rows(DEMO_TABLE)).map((r) => r.data);
    expect(stored).toContainEqual(
      expect.objectContaining({ dealerCode: 'ES001', postalCode: '28001', vehicles: 12, openedOn: '2020-03-01' }),
    );
    expect(stored).toContainEqual(expect.objectContaining({ dealerCode: 'ES002', openedOn: null }));
  });

  it('refuses rows the data model does not allow, naming their row', async () => {
    const kit = await importKit(t);
    const manager = await t.signedIn(['manager']);
    const masters = (await t.call('GET', '/pipelines/masters', { token: manager.token })).body.data;
    const uploadId = await kit.upload(manager.token, masters[0]._id, DEMO_DATA_SUB_KIND, 'dealerCode,name,city\nbad,X,Y\n');
    const status = (await t.call('GET', `/uploads/status?ids=${uploadId}`, { token: manager.token })).body.data;
    expect(status[0]).toMatchObject({ status: 'invalid' });
    const logs = (await t.call('GET', `/logs/uploads?ids=${uploadId}`, { token: manager.token })).body.data;
    expect(logs.map((l: { message: string }) => l.message).join('\n')).toMatch(/row 2\b.*dealerCode/is);
  });
});

describe('the demo component and its data model', () => {
  it('takes version 2 of the demo data model through the update report, the new component version checking rows against it', async () => {
    const { token } = await t.signedIn(['manager']);
    const get = async (url: string) => (await t.call('GET', url, { token })).body.data;
    const post = (url: string, body: unknown) => t.call('POST', url, { token, body });

    // Version 1 of the data model, locked, on the component's input port (and the pipelines' sources).
    const row = await t.ctx.db.kysely
      .selectFrom('components')
      .select('id')
      .where('name', '=', DEMO_COMPONENT)
      .executeTakeFirstOrThrow();
    const component = await get(`/components/find?id=${row.id}`);
    const v1 = await get(`/schemas/byname?name=${encodeURIComponent(DEMO_PORT_MODEL)}`);
    expect(await get(`/schemas/find?id=${v1._id}`)).toMatchObject({ version: 1, vLocked: true });
    expect(component.inputs).toMatchObject([{ name: DEMO_DATA_SUB_KIND, inputSchema: v1._id, inputIsJoin: true }]);
    const before = await get(`/components/version/compute?id=${component._id}`);
    expect(before.needUpdate).toBe(false);
    expect(before.data.schemas).toMatchObject([{ doc: { _id: v1._id, name: DEMO_PORT_MODEL, version: 1 }, needUpdate: false }]);

    // Version 2, with a field changed: at least one vehicle.
    const made = await post('/schemas/version/new', { id: v1._id });
    expect(made.status, made.body.message).toBe(200);
    const draft = await get(`/schemas/find?id=${made.body.data._id}`);
    const { vehicles, ...others } = draft.jsonSchema.properties;
    const jsonSchema = { ...draft.jsonSchema, properties: { ...others, vehicles: { ...vehicles, minimum: 1 } } };
    const saved = await post('/schemas', { ...draft, jsonSchema });
    expect(saved.status, saved.body.message).toBe(200);

    const report = await get(`/components/version/compute?id=${component._id}`);
    expect(report.needUpdate).toBe(true);
    expect(report.data.schemas).toEqual([
      {
        doc: expect.objectContaining({ _id: v1._id, version: 1 }),
        needUpdate: true,
        toUpdate: expect.objectContaining({ _id: draft._id, name: DEMO_PORT_MODEL, version: 2, vLocked: false }),
        newVersionNumber: 2,
        newDocIsLocked: false,
      },
    ]);

    const applied = await post('/components/version/update', {
      update_data: { id: component._id, schemasToUpdate: [v1._id] },
    });
    expect(applied.status, applied.body.message).toBe(200);
    const [entry] = applied.body.data.success;
    expect(applied.body.data.success).toEqual([{ name: DEMO_COMPONENT, old_version: 1, new_version: 2, newId: entry.newId }]);
    const updated = await get(`/components/find?id=${entry.newId}`);
    expect(updated).toMatchObject({ version: 2, vLocked: false, inputs: [{ name: DEMO_DATA_SUB_KIND, inputSchema: draft._id }] });
    expect((await get(`/components/find?id=${component._id}`)).inputs[0].inputSchema).toBe(v1._id);
    expect((await get(`/components/version/compute?id=${entry.newId}`)).needUpdate).toBe(false);

    // The new version checks each row against version 2; version 1 still takes the row.
    const dealer = { dealerCode: 'FR009', name: 'Zero', city: 'Nice', vehicles: 0 };
    const run = (id: string) =>
      post(`/components/${id}/execute`, {
        payload: { [DEMO_DATA_SUB_KIND]: [dealer] },
        rt_context: { pipeline: { name: 'Test' } },
      });
    const refused = await run(entry.newId);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      `Execute error : Component "${DEMO_COMPONENT}" v2: input port "${DEMO_DATA_SUB_KIND}": the value does not match data model "${DEMO_PORT_MODEL}" v2 at /0/vehicles: must be >= 1`,
    );
    const kept = await run(component._id);
    expect(kept.status, kept.body.message).toBe(200);
    expect(kept.body.data.output.dealers).toMatchObject([{ dealerCode: 'FR009', vehicles: 0, city: 'NICE' }]);
  });
});
