import { headerSignature, MAPPING_MESSAGES } from '@gdb/shared/uploads/column-matcher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataModel } from '../../../test/factories.ts';
import { csvSource, importKit, sink } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let kit: Awaited<ReturnType<typeof importKit>>;
let user: { token: string; id: string };
let stranger: { token: string; id: string };
let pipelineId: string;
let modelId: string;
let componentId: string;

const DEALER_MODEL = {
  type: 'object',
  required: ['dealerCode', 'name', 'city'],
  additionalProperties: false,
  properties: {
    dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    name: { type: 'string', minLength: 1 },
    city: { type: 'string', minLength: 1, 'x-aliases': ['Ville'] },
    email: { type: 'string', format: 'email' },
  },
};
const HEADER = 'Dealer Code;Name;City;E-Mail;Notes';
const MAPPING = [
  { column: 'Dealer Code', field: 'dealerCode' },
  { column: 'Name', field: 'name' },
  { column: 'City', field: 'city' },
  { column: 'E-Mail', field: 'email' },
  { column: 'Notes', field: null },
];
// The component logs the first row it is given, so the test sees the fields the import used.
const COPY = "ctx.log.info('first row: ' + JSON.stringify(ctx.input.dealers[0])); ctx.output.out = ctx.input.dealers;";

async function signed(roles: Parameters<TestApp['signedIn']>[0]) {
  const s = await t.signedIn(roles);
  return { token: s.token, id: s.user.id };
}

const saveMapping = (token: string, columns: unknown, pid = pipelineId) =>
  t.call('POST', '/uploads/column-mappings', { token, body: { pipelineId: pid, dataSubKind: 'dealers', columns } });

async function uploadLog(uploadId: string): Promise<string[]> {
  return (await t.services.logs.forUploads([uploadId])).map((l) => l.message);
}

async function statusOf(token: string, uploadId: string) {
  return (await t.call('GET', `/uploads/status?ids=${uploadId}`, { token })).body.data[0];
}

beforeAll(async () => {
  t = await createTestApp();
  await t.services.imports.startWorking({ concurrency: 1 });
  kit = await importKit(t);
  user = await signed(['user']);
  stranger = await signed(['user']);
  modelId = await buildDataModel(t, 'dealer', DEALER_MODEL);
  componentId = await kit.component(COPY, ['dealers'], ['out']);
  pipelineId = await kit.pipeline({
    name: 'dealers FR',
    component: componentId,
    sources: [csvSource('dealers', { dataModel: modelId })],
    sinks: [sink('out')],
  });
  await kit.assign(user.id, pipelineId);
});
afterAll(async () => {
  await t.close();
});

describe('column mappings', () => {
  it('reads a file as written while no mapping is stored for its header', async () => {
    const id = await kit.upload(user.token, pipelineId, 'dealers', `${HEADER}\nFR001;Garage;Lyon;a@b.example;x\n`);
    expect(await statusOf(user.token, id)).toMatchObject({ status: 'invalid' });
  });

  it('applies a stored mapping when the file is checked, and an import takes the mapped rows', async () => {
    const saved = await saveMapping(user.token, MAPPING);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ signature: headerSignature(MAPPING.map((c) => c.column)), columns: MAPPING });

    const id = await kit.upload(
      user.token,
      pipelineId,
      'dealers',
      `${HEADER}\nFR001;Garage du Centre;Lyon;contact@garage.example;call first\nFR002;Auto Sud;Marseille;;\n`,
    );
    expect(await statusOf(user.token, id)).toMatchObject({ status: 'valid', rowCount: 2 });
    expect(await uploadLog(id)).toContain(
      'Columns mapped: Dealer Code → dealerCode, Name → name, City → city, E-Mail → email; ignored: Notes',
    );

    const res = await t.call('POST', '/imports', { token: user.token, body: { pipelineId, kind: 'immediate' } });
    expect(res.status).toBe(200);
    const done = await kit.waitFor(res.body.data.importId, ['done', 'failed']);
    expect(done.state).toBe('done');
    expect(await kit.messages(res.body.data.importId)).toContain(
      'first row: {"dealerCode":"FR001","name":"Garage du Centre","city":"Lyon","email":"contact@garage.example"}',
    );
  });

  it('is remembered: the mappings of the source are listed, and a file with the same header, spelt otherwise, needs none', async () => {
    const listed = await t.call('GET', `/uploads/column-mappings?pipelineId=${pipelineId}&dataSubKind=dealers`, {
      token: user.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.mappings).toHaveLength(1);
    expect(listed.body.data.fields).toContainEqual({ name: 'city', aliases: ['Ville'], required: true });
    // The same columns in another order and case: the same header signature.
    const id = await kit.upload(
      user.token,
      pipelineId,
      'dealers',
      'notes,CITY,name,dealer code,e-mail\n,Lille,Nord Motors,FR003,\n',
    );
    expect(await statusOf(user.token, id)).toMatchObject({ status: 'valid', rowCount: 1 });
  });

  it("reviews a mapped file's rows by the data model's fields, its ignored columns left out", async () => {
    const id = await kit.upload(user.token, pipelineId, 'dealers', `${HEADER}\nFR005;Garage;Lyon;;x\nbad;Auto;Nice;;\n`);
    expect(await statusOf(user.token, id)).toMatchObject({ status: 'invalid' });
    const review = await t.call('GET', `/uploads/${id}/review`, { token: user.token });
    expect(review.status, review.body.message).toBe(200);
    expect(review.body.data.fields).toEqual(['dealerCode', 'name', 'city', 'email']);
    expect(
      review.body.data.rows.map((r: { index: number; problems: { field: string }[] }) => [
        r.index,
        r.problems.map((p) => p.field),
      ]),
    ).toEqual([[1, ['dealerCode']]]);
  });

  it('serves a file posted again later through the stored upload path (a check read back from the store)', async () => {
    const id = await kit.upload(user.token, pipelineId, 'dealers', `${HEADER}\nFR004;Ouest Auto;Nantes;;\n`);
    await t.ctx.db.kysely.updateTable('uploads').set({ status: 'pending', claimed_at: null }).where('id', '=', id).execute();
    await t.services.uploads.resume(new Date(Date.now() + 60_000));
    await t.services.uploads.settled();
    expect(await statusOf(user.token, id)).toMatchObject({ status: 'valid', rowCount: 1 });
  });

  it("serves the bodies an endpoint receives later: JSON objects keyed as the dealer's system names them", async () => {
    const manager = await signed(['manager']);
    const source = csvSource('dealers', { connectorType: 'endpoint', contentType: 'json', dataModel: modelId });
    const id = await kit.pipeline({
      name: 'dealers feed',
      component: componentId,
      sources: [source],
      sinks: [sink('out', 'JSON')],
    });
    const published = await t.call('POST', '/pipelines/publish-endpoint', {
      token: manager.token,
      body: { id, path: 'dealers/feed' },
    });
    expect(published.status).toBe(200);
    expect((await saveMapping(manager.token, MAPPING, id)).status).toBe(200);
    const body = [{ 'Dealer Code': 'FR010', Name: 'Garage Feed', City: 'Lille', 'E-Mail': 'feed@garage.example', Notes: 'x' }];
    const res = await t.app.inject({
      method: 'POST',
      url: '/gdb-runtime/v1/dealers/feed',
      headers: { 'content-type': 'application/json', 'x-api-key': published.body.data.apiKey },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(202);
    const { uploadId, importId } = res.json().data;
    // A 202 says the body passed its check (it holds none of the fields as named); its log lines follow.
    await t.services.uploads.settled();
    expect(await uploadLog(uploadId)).toContain(
      'Columns mapped: Dealer Code → dealerCode, Name → name, City → city, E-Mail → email; ignored: Notes',
    );
    expect((await kit.waitFor(importId, ['done', 'failed'])).state).toBe('done');
  });

  it('refuses a mapping naming a field not in the data model, two columns for one field, or leaving a required field unmapped, with 400', async () => {
    const notAField = await saveMapping(user.token, [{ column: 'Dealer Code', field: 'code' }]);
    expect(notAField.status).toBe(400);
    expect(notAField.body.message).toBe(MAPPING_MESSAGES.notAField('code'));
    const twice = await saveMapping(user.token, [
      { column: 'City', field: 'city' },
      { column: 'Ville', field: 'city' },
    ]);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('The mapping maps both "City" and "Ville" to the field "city".');
    // A required field left unmapped is refused by the server too, in the dialog's words.
    const city = MAPPING.map((c) => (c.column === 'City' ? { column: 'City', field: null } : c));
    const missing = await saveMapping(user.token, city);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Required fields not mapped: city.');
  });

  it('refuses a user a mapping of a pipeline not assigned to them, and its list', async () => {
    const refused = await saveMapping(stranger.token, MAPPING);
    expect(refused.status).toBe(403);
    const list = await t.call('GET', `/uploads/column-mappings?pipelineId=${pipelineId}&dataSubKind=dealers`, {
      token: stranger.token,
    });
    expect(list.status).toBe(403);
    const missing = await saveMapping(user.token, MAPPING, '00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
  });
});
