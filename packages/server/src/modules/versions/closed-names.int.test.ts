// A manager without a badge probes the version calls for the names of documents the badge closes:
// refusals and bulk answers must count those documents, never name them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceValues } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
let manager: string;
let boss: string;
let secret: string;
let ref: Awaited<ReturnType<typeof referenceValues>>;
beforeAll(async () => {
  t = await createTestApp();
  manager = (await t.signedIn(['manager'])).token;
  boss = (await t.signedIn(['super-admin'])).token;
  secret = (await post('/tags', { name: `Secret ${newId()}`, type: 'project' }, boss)).body.data._id as string;
  ref = await referenceValues(t);
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, body: unknown, token = manager) => t.call('POST', url, { token, body });
const tag = () => newId().slice(-8);

/** Closes a document to everyone without the secret badge. */
async function close(id: string, type: 'schema' | 'component' | 'pipeline') {
  const res = await post('/tags/update-document-tags', { id, type, tags: { read: [[secret]], write: [[secret]] } }, boss);
  expect(res.status, res.body.message).toBe(200);
}

/** A data model, saved by the super-admin as the editor would. */
async function schema(name: string): Promise<{ _id: string; name: string }> {
  const res = await post(
    '/schemas',
    { name, folder: null, jsonSchema: { type: 'object', properties: { sku: { type: 'string' } } } },
    boss,
  );
  expect(res.status, res.body.message).toBe(200);
  return res.body.data;
}

/** A component using a data model on its ports, saved by the super-admin as the editor would. */
async function component(name: string, schemaId: string): Promise<{ _id: string; name: string }> {
  const res = await post(
    '/components',
    {
      name,
      folder: null,
      kind: 'instruction',
      inputs: [{ name: 'rows', inputSchema: schemaId }],
      outputs: [{ name: 'out', outputSchema: schemaId }],
      jsCode: 'ctx.output.out = ctx.input.rows;',
    },
    boss,
  );
  expect(res.status, res.body.message).toBe(200);
  return res.body.data;
}

/** A master pipeline and two country pipelines over one data model and component. */
async function masterFamily(n: string) {
  const model = await schema(`Prices ${n}`);
  const comp = await component(`Pass ${n}`, model._id);
  const common = {
    component: comp._id,
    dataSources: [
      {
        dataSubKind: 'rows',
        connectorType: 'manual' as const,
        dataFromMaster: false,
        contentType: 'csv' as const,
        dataModel: model._id,
      },
    ],
    dataSinks: [{ name: 'out', format: 'CSV' as const, target: null }],
    ...ref,
  };
  const master = await t.services.pipelines.create({ name: `Master ${n}`, isMaster: true, ...common });
  const france = await t.services.pipelines.create({ name: `France ${n}`, isMaster: false, masterPipeline: master, ...common });
  const spain = await t.services.pipelines.create({ name: `Spain ${n}`, isMaster: false, masterPipeline: master, ...common });
  return { model, comp, master, france, spain };
}

describe('answers that would name documents the caller may not read', () => {
  it("lock's 'depends on drafts' counts the closed drafts", async () => {
    const n = tag();
    const closed = await schema(`Closed margins ${n}`);
    const mine = await component(`Margin check ${n}`, closed._id);
    await close(closed._id, 'schema');
    const refused = await post('/components/version/lock', { id: mine._id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('It depends on drafts; lock them first or lock with force: 1 document you cannot read');
    // The badge holder sees the name.
    const asBoss = await post('/components/version/lock', { id: mine._id }, boss);
    expect(asBoss.body.message).toContain(`Closed margins ${n} (v.1 - Draft)`);
  });

  it("a delete refused as 'used by' counts the closed users", async () => {
    const n = tag();
    const model = await schema(`Shared rows ${n}`);
    const open = await component(`Open user ${n}`, model._id);
    const hidden = await component(`Hidden user ${n}`, model._id);
    await close(hidden._id, 'component');
    const refused = await post('/schemas/version/delete', { id: model._id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`This schema is used by ${open.name} (v.1 - Draft), 1 document you cannot read.`);
    expect(refused.body.message).not.toContain('Hidden');
  });

  it('mass-lock answers a closed pipeline under the id asked, unnamed and not locked', async () => {
    const n = tag();
    const { master, france } = await masterFamily(n);
    await post('/pipelines/version/lock', { id: master, force: true }, boss);
    await close(france, 'pipeline');
    const res = await post('/pipelines/version/mass-lock', { ids: [france] });
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data).toEqual({
      success: [],
      errors: [{ name: france, version: null, error: 'You are not allowed to read this pipeline.' }],
    });
    expect(JSON.stringify(res.body.data)).not.toContain(`France ${n}`);
    expect((await t.services.pipelines.stored(france))?.vLocked).toBe(false);
  });

  it('an update with updateCountries, and mass-update, leave a closed country unnamed', async () => {
    const n = tag();
    const { model, master, france, spain } = await masterFamily(n);
    await post('/pipelines/version/lock', { id: master, force: true, country: true }, boss);
    await close(france, 'pipeline');
    await post('/schemas/version/new', { id: model._id });
    const update = { id: master, schemasToUpdate: [model._id], updateCountries: true };
    const res = await post('/pipelines/version/mass-update', [update]);
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data.errors).toEqual([
      { name: 'A pipeline you cannot read', version: null, error: 'You are not allowed to read this pipeline.' },
    ]);
    expect(JSON.stringify(res.body.data)).not.toContain(`France ${n}`);
    expect(res.body.data.success.map((s: { name: string }) => s.name)).toContain(`Spain ${n}`);
    expect((await t.services.pipelines.stored(spain))?.vLocked).toBe(true);

    // A closed pipeline named by id in mass-update is answered under that id.
    const closedMaster = await masterFamily(`${n}b`);
    await close(closedMaster.master, 'pipeline');
    await post('/schemas/version/new', { id: closedMaster.model._id });
    const probe = await post('/pipelines/version/mass-update', [
      { id: closedMaster.master, schemasToUpdate: [closedMaster.model._id] },
    ]);
    expect(probe.status, probe.body.message).toBe(200);
    expect(probe.body.data.errors).toEqual([
      { name: closedMaster.master, version: null, error: 'You are not allowed to change this document.' },
    ]);
  });

  it('a name conflict with a closed data model answers without its name', async () => {
    const n = tag();
    const closed = await schema(`Acquisition targets ${n}`);
    await close(closed._id, 'schema');
    const res = await post('/schemas', { name: `ACQUISITION targets ${n}`, folder: null, jsonSchema: { type: 'object' } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A data model with this name already exists.');
    // An open one is named, as before.
    const open = await schema(`Open prices ${n}`);
    const named = await post('/schemas', { name: open.name, folder: null, jsonSchema: { type: 'object' } });
    expect(named.body.message).toBe(`A data model named ${open.name} already exists.`);
  });
});
