import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceValues } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
let boss: string;
let manager: string;
/** A manager holding the badge 'Secret', and one without it. */
let insider: string;
let outsider: string;
let secret: string;
let ref: Awaited<ReturnType<typeof referenceValues>>;

const call = (method: 'GET' | 'POST', url: string, token: string, body?: unknown) =>
  t.call(method, url, { token, ...(body === undefined ? {} : { body }) });
const save = (body: Record<string, unknown>, token = manager) => call('POST', '/pipelines', token, body);
const badge = (id: string, type: string, read: string[][], write: string[][] = []) =>
  call('POST', '/tags/update-document-tags', boss, { id, type, tags: { read, write } });

const signIn = async (badges: string[]) => {
  const user = await t.createUser(['manager']);
  await t.ctx.db.kysely.updateTable('users').set({ project_tags: badges }).where('id', '=', user.id).execute();
  return t.login(user.user_name);
};

beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  manager = (await t.signedIn(['manager'])).token;
  secret = (await call('POST', '/tags', boss, { name: 'Secret', type: 'project' })).body.data._id;
  insider = await signIn([secret]);
  outsider = await signIn([]);
  ref = await referenceValues(t);
});
afterAll(async () => {
  await t.close();
});

let made = 0;
/** A data model and an instruction component reading and writing it, made by the super-admin. */
async function componentAndModel() {
  made += 1;
  const model = (
    await call('POST', '/schemas', boss, {
      name: `Rows ${made}`,
      jsonSchema: { type: 'object', properties: { a: { type: 'string' } } },
    })
  ).body.data as { _id: string; name: string };
  const component = (
    await call('POST', '/components', boss, {
      name: `Map ${made}`,
      kind: 'instruction',
      inputs: [{ name: 'rows', inputSchema: model._id }],
      outputs: [{ name: 'out', outputSchema: model._id }],
      jsCode: 'ctx.output.out = ctx.input.rows;',
    })
  ).body.data as { _id: string; name: string };
  return { model, component };
}

/** A master with a component, a manual source of the data model, a CSV sink and every reference value. */
async function master(name = `Master ${newId().slice(-4)}`) {
  const { model, component } = await componentAndModel();
  const res = await save({
    name,
    isMaster: true,
    component: component._id,
    pipelineSchema: model._id,
    dataSources: [{ dataSubKind: 'rows', connectorType: 'manual', contentType: 'csv', dataModel: model._id }],
    dataSinks: [{ name: 'out', format: 'CSV' }],
    ...ref,
  });
  expect(res.status, res.body.message).toBe(200);
  return { model, component, master: res.body.data as { _id: string; sys_version: number; version: number } };
}

describe('POST /pipelines creating a pipeline', () => {
  it("creates a master or a country with a name only, saves an empty master as null, and answers 'Pipeline saved'", async () => {
    const res = await save({ name: 'Only a name', isMaster: true });
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.message).toBe('Pipeline saved');
    expect(res.body.data).toMatchObject({ name: 'Only a name', isMaster: true, version: 1, vLocked: false, component: null });
    const country = await save({ name: 'Country alone', isMaster: false, masterPipeline: '' });
    expect(country.status, country.body.message).toBe(200);
    expect(country.body.data.masterPipeline).toBeNull();
    const read = await call('GET', `/pipelines/id?id=${country.body.data._id}`, manager);
    expect(read.body.data).toMatchObject({ name: 'Country alone', masterPipeline: null, sys_version: 1 });
  });

  it('gives a country what it inherits from its master, whatever the body says, keeping its own dataFromMaster', async () => {
    const { model, component, master: m } = await master();
    const other = await componentAndModel();
    const res = await save({
      name: 'Inheriting',
      isMaster: false,
      masterPipeline: m._id,
      component: other.component._id,
      dataSources: [
        { dataSubKind: 'rows', connectorType: 'manual', dataFromMaster: true, dataModel: other.model._id },
        { dataSubKind: 'extra', connectorType: 'manual' },
      ],
      dataSinks: [],
      brand: null,
    });
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data).toMatchObject({
      isMaster: false,
      masterPipeline: m._id,
      component: component._id,
      pipelineSchema: model._id,
      dataSources: [{ dataSubKind: 'rows', connectorType: 'manual', dataFromMaster: true, dataModel: model._id }],
      dataSinks: [{ name: 'out', format: 'CSV' }],
      brand: { _id: ref.brand },
      locale: { _id: ref.locale },
      productLine: { _id: ref.productLine },
      datakind: { _id: ref.datakind },
    });
  });

  it('is refused to users and admins, and the folder must be writable through the badges', async () => {
    for (const roles of [['user'], ['admin']] as const) {
      const { token } = await t.signedIn([...roles]);
      expect((await save({ name: 'Not mine', isMaster: true }, token)).status).toBe(403);
    }
    const folder = (await call('POST', '/folders', boss, { name: 'Secret pipelines', kind: 'pipeline' })).body.data.id as string;
    await badge(folder, 'folder', [], [[secret]]);
    const refused = await save({ name: 'In secret', isMaster: true, folder }, outsider);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You are not allowed to change this document.');
    const allowed = await save({ name: 'In secret', isMaster: true, folder }, insider);
    expect(allowed.status, allowed.body.message).toBe(200);
    expect(allowed.body.data.folder).toBe(folder);
  });
});

describe('POST /pipelines saving a draft', () => {
  it('checks the save rules in their order and words', async () => {
    const { master: m } = await master();
    const created = (await save({ name: 'Rules', isMaster: false, masterPipeline: m._id })).body.data;
    const body = { _id: created._id, version: 1, sys_version: created.sys_version, name: 'Rules' };
    const noMaster = await save({ ...body, isMaster: false, masterPipeline: null });
    expect([noMaster.status, noMaster.body.message]).toEqual([400, 'Country Pipeline must inherit from a master pipeline']);
    const blank = await save({ ...body, isMaster: false, masterPipeline: '' });
    expect(blank.body.message).toBe('Country Pipeline must inherit from a master pipeline');
    const itself = await save({ ...body, isMaster: false, masterPipeline: created._id });
    expect([itself.status, itself.body.message]).toEqual([400, 'Country Pipeline cannot inherit from itself']);
    // Another version of the same pipeline is itself too.
    const v2 = (await call('POST', '/pipelines/version/new', manager, { id: created._id })).body.data._id as string;
    const ownFamily = await save({
      _id: v2,
      version: 2,
      sys_version: 1,
      name: 'Rules',
      isMaster: false,
      masterPipeline: created._id,
    });
    expect(ownFamily.body.message).toBe('Country Pipeline cannot inherit from itself');
    const noComponent = await save({ ...body, isMaster: true, component: null });
    expect([noComponent.status, noComponent.body.message]).toEqual([400, 'Master pipeline must invoke a component']);
    // Nothing was written by the refused saves.
    expect((await call('GET', `/pipelines/id?id=${created._id}`, manager)).body.data.sys_version).toBe(created.sys_version);
  });

  it('refuses a save over a newer one (409), and a body without version or sys_version', async () => {
    const { master: m } = await master('Concurrent master');
    const body = {
      ...m,
      name: 'Concurrent master',
      isMaster: true,
      component: (await t.services.pipelines.stored(m._id))?.component,
    };
    const first = await save({ ...body, name: 'First' });
    expect(first.status, first.body.message).toBe(200);
    expect(first.body.data.sys_version).toBe(m.sys_version + 1);
    const late = await save({ ...body, name: 'Late' });
    expect([late.status, late.body.message]).toEqual([
      409,
      'This pipeline was saved by someone else since you opened it; reload it.',
    ]);
    const { sys_version: _s, ...noSys } = body;
    expect((await save(noSys)).body.message).toBe('Update : Missing sys_version in document');
    const { version: _v, ...noVersion } = body;
    expect((await save(noVersion)).body.message).toBe('Update : Missing version in document');
    expect((await save({ name: 'x', isMaster: true, sys_version: 1 })).body.message).toBe('Update : Missing _id in document');
    expect((await call('GET', `/pipelines/id?id=${m._id}`, manager)).body.data.name).toBe('First');
  });

  it('refuses a locked version and a pipeline whose write badges the caller lacks', async () => {
    const { master: m, component } = await master();
    const body = { ...m, name: 'Guarded', isMaster: true, component: component._id };
    await badge(m._id, 'pipeline', [], [[secret]]);
    expect((await save(body, outsider)).status).toBe(403);
    const ok = await save(body, insider);
    expect(ok.status, ok.body.message).toBe(200);
    await call('POST', '/pipelines/version/lock', boss, { id: m._id, force: true });
    const locked = await save({ ...body, sys_version: ok.body.data.sys_version }, insider);
    expect(locked.status).toBe(403);
    expect(locked.body.message).toMatch(/is locked/);
  });
});

describe('POST /pipelines and the documents it names', () => {
  it('refuses a component, data model or master that does not exist, naming it', async () => {
    const { component } = await componentAndModel();
    const ghost = newId();
    const noComponent = await save({ name: 'Ghost component', isMaster: true, component: ghost });
    expect([noComponent.status, noComponent.body.message]).toEqual([400, `The component ${ghost} does not exist.`]);
    const noModel = await save({
      name: 'Ghost model',
      isMaster: true,
      component: component._id,
      dataSources: [{ dataSubKind: 'rows', connectorType: 'manual', dataModel: ghost }],
    });
    expect([noModel.status, noModel.body.message]).toEqual([400, `The data model ${ghost} does not exist.`]);
    const noMaster = await save({ name: 'Ghost master', isMaster: false, masterPipeline: ghost });
    expect([noMaster.status, noMaster.body.message]).toEqual([400, `The master pipeline ${ghost} does not exist.`]);
    const country = (await save({ name: 'Not a master', isMaster: false })).body.data._id as string;
    const notMaster = await save({ name: 'Under a country', isMaster: false, masterPipeline: country });
    expect(notMaster.body.message).toBe('The pipeline Not a master (v.1 - Draft) is not a master pipeline.');
    const noBrand = await save({ name: 'Ghost brand', isMaster: true, brand: ghost });
    expect([noBrand.status, noBrand.body.message]).toEqual([400, `The brand ${ghost} does not exist.`]);
    const all = (await call('GET', '/pipelines', manager)).body.data as { name: string }[];
    expect(all.map((p) => p.name)).not.toEqual(expect.arrayContaining(['Ghost component']));
  });

  it('refuses a component, data model or master the caller may not read, by the id sent, never by its name', async () => {
    const { model, component } = await componentAndModel();
    await badge(component._id, 'component', [[secret]]);
    const hiddenComponent = await save({ name: 'Secret component', isMaster: true, component: component._id }, outsider);
    expect([hiddenComponent.status, hiddenComponent.body.message]).toEqual([
      403,
      `You are not allowed to read the component ${component._id}.`,
    ]);
    expect((await save({ name: 'Secret component', isMaster: true, component: component._id }, insider)).status).toBe(200);
    await badge(model._id, 'schema', [[secret]]);
    const hiddenModel = await save({ name: 'Secret model', isMaster: true, pipelineSchema: model._id }, outsider);
    expect([hiddenModel.status, hiddenModel.body.message]).toEqual([
      403,
      `You are not allowed to read the data model ${model._id}.`,
    ]);
    const secretMaster = (await save({ name: 'Secret master', isMaster: true }, boss)).body.data._id as string;
    await badge(secretMaster, 'pipeline', [[secret]]);
    const hiddenMaster = await save({ name: 'Under a secret', isMaster: false, masterPipeline: secretMaster }, outsider);
    expect([hiddenMaster.status, hiddenMaster.body.message]).toEqual([
      403,
      `You are not allowed to read the master pipeline ${secretMaster}.`,
    ]);
    // A closed pipeline that is no master is not told apart from a closed master, nor named.
    const secretCountry = (await save({ name: 'Secret country', isMaster: false }, boss)).body.data._id as string;
    await badge(secretCountry, 'pipeline', [[secret]]);
    const probe = await save({ name: 'Probing', isMaster: false, masterPipeline: secretCountry }, outsider);
    expect([probe.status, probe.body.message]).toEqual([
      403,
      `You are not allowed to read the master pipeline ${secretCountry}.`,
    ]);
  });
});
