import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { superAdmin } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { actingAs, versionChain } from '../../../test/version-chain.ts';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
let manager: string;
let me: AuthContext;
beforeAll(async () => {
  t = await createTestApp();
  const signed = await t.signedIn(['manager']);
  manager = signed.token;
  me = actingAs(signed.user);
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, body: unknown) => t.call('POST', url, { token: manager, body });
const get = (url: string) => t.call('GET', url, { token: manager });
const versionsOf = async (id: string) => (await get(`/schemas/version?id=${id}`)).body.data;

describe('the version engine across a data model, a component and a pipeline', () => {
  it('locks only with force while the chain holds drafts, then locks the whole chain', async () => {
    const { schema, component, pipelineId } = await versionChain(t, me.userId);
    await expect(t.services.versions.lock('pipeline', me, pipelineId)).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining(`${schema.name} (v.1 - Draft), ${component.name} (v.1 - Draft)`),
    });
    expect((await t.services.components.find(component._id, superAdmin())).vLocked).toBe(false);

    const answer = await t.services.versions.lock('pipeline', me, pipelineId, true);
    expect(answer.locked.map((d) => [d.kind, d._id, d.vLocked])).toEqual([
      ['schema', schema._id, true],
      ['component', component._id, true],
      ['pipeline', pipelineId, true],
    ]);
    expect((await t.services.components.find(component._id, superAdmin())).vLocked).toBe(true);
    expect((await versionsOf(schema._id))[0]).toMatchObject({ _id: schema._id, version: 1, vLocked: true, isMaster: false });
    expect((await t.services.versions.versions('pipeline', pipelineId, superAdmin()))[0]).toMatchObject({
      vLocked: true,
      isMaster: true,
    });
    // Locking again changes nothing.
    expect((await t.services.versions.lock('pipeline', me, pipelineId)).locked).toEqual([]);
  });

  it('makes a new version, reports it as the update of every dependent, and applies the update up the chain', async () => {
    const { schema, component, pipelineId } = await versionChain(t, me.userId);
    await t.services.versions.lock('pipeline', me, pipelineId, true);

    const made = await post('/schemas/version/new', { id: schema._id });
    expect(made.status, made.body.message).toBe(200);
    expect(made.body.data).toMatchObject({ kind: 'schema', name: schema.name, version: 2, vLocked: false });
    const v2 = made.body.data._id as string;
    expect(await versionsOf(schema._id)).toMatchObject([
      { _id: schema._id, version: 1, vLocked: true, vParents: [] },
      { _id: v2, version: 2, vLocked: false, vParents: [schema._id] },
    ]);
    expect((await t.services.schemas.find(v2, superAdmin())).jsonSchema).toEqual(schema.jsonSchema);

    const report = await t.services.versions.compute('pipeline', pipelineId, superAdmin());
    expect(report.needUpdate).toBe(true);
    expect(report.data.needUpdate).toBe(true);
    expect(report.data.schemas).toEqual([
      {
        doc: expect.objectContaining({ _id: schema._id, version: 1 }),
        needUpdate: true,
        toUpdate: expect.objectContaining({ _id: v2, version: 2, vLocked: false }),
        newVersionNumber: 2,
        newDocIsLocked: false,
      },
    ]);
    expect(report.data.components).toMatchObject([{ doc: { _id: component._id }, needUpdate: false, toUpdate: null }]);

    const applied = await t.services.versions.update('pipeline', me, { id: pipelineId, schemasToUpdate: [schema._id] });
    const [newComponent, newPipeline] = applied.success;
    expect(applied.success).toEqual([
      { name: component.name, old_version: 1, new_version: 2, newId: expect.any(String) },
      { name: expect.stringMatching(/^Chain /), old_version: 1, new_version: 2, newId: expect.any(String) },
    ]);
    const c2 = await t.services.components.find(newComponent?.newId ?? '', superAdmin());
    expect(c2).toMatchObject({ version: 2, vLocked: false, vParents: [component._id], familyId: component.familyId });
    expect(c2.inputs[0]?.inputSchema).toBe(v2);
    expect(c2.outputs[0]?.outputSchema).toBe(v2);
    const p2 = await t.services.pipelines.stored(newPipeline?.newId ?? '');
    expect(p2).toMatchObject({ version: 2, vLocked: false, component: c2._id });
    // The versions updated from are untouched.
    expect((await t.services.components.find(component._id, superAdmin())).inputs[0]?.inputSchema).toBe(schema._id);
    expect((await t.services.pipelines.stored(pipelineId))?.component).toBe(component._id);
    expect((await t.services.versions.compute('pipeline', p2?._id ?? '', superAdmin())).needUpdate).toBe(false);
  });

  it('deletes drafts only, refuses one in use, and answers the version to open next', async () => {
    const { schema, component, pipelineId } = await versionChain(t, me.userId);
    await expect(t.services.versions.remove('schema', me, schema._id)).rejects.toMatchObject({
      status: 409,
      message: `This schema is used by ${component.name} (v.1 - Draft).`,
    });
    await t.services.versions.lock('pipeline', me, pipelineId, true);
    const locked = await post('/schemas/version/delete', { id: schema._id });
    expect(locked.status).toBe(403);
    expect(locked.body.message).toBe('Version 1 of this schema is locked: create a new version to change it.');

    const v2 = (await t.services.versions.newVersion('schema', me, schema._id))._id;
    const v3 = (await t.services.versions.newVersion('schema', me, v2))._id;
    const v4 = (await t.services.versions.newVersion('schema', me, v3))._id;
    const middle = await post('/schemas/version/delete', { id: v3 });
    expect(middle.body.data).toEqual({ _id: v3, version: 3, next: v4 });
    // The graph stays joined: v4 now comes from v2.
    expect((await versionsOf(v2)).map((v: { vParents: string[] }) => v.vParents)).toEqual([[], [schema._id], [v2]]);
    expect((await post('/schemas/version/delete', { id: v4 })).body.data).toEqual({ _id: v4, version: 4, next: v2 });
    expect((await post('/schemas/version/delete', { id: v2 })).body.data.next).toBe(schema._id);

    const alone = await t.services.schemas.create({ name: `Alone ${newId()}`, jsonSchema: {} });
    expect((await post('/schemas/version/delete', { id: alone._id })).body.data).toEqual({
      _id: alone._id,
      version: 1,
      next: null,
    });
  });

  it('moves $ref pointers of data models and the data models of pipeline sources', async () => {
    const inner = await t.services.schemas.create({ name: `Inner ${newId()}`, jsonSchema: { type: 'string' } });
    const outer = await t.services.schemas.create({
      name: `Outer ${newId()}`,
      jsonSchema: { type: 'object', properties: { a: { $ref: `${inner._id}#/definitions/x` }, b: { $ref: inner._id } } },
    });
    const inner2 = (await t.services.versions.newVersion('schema', me, inner._id))._id;
    const applied = await post('/schemas/version/update', { update_data: { id: outer._id, schemasToUpdate: [inner2] } });
    expect(applied.status, applied.body.message).toBe(200);
    const outer2 = await t.services.schemas.find(applied.body.data.success[0].newId, superAdmin());
    expect(outer2.jsonSchema).toEqual({
      type: 'object',
      properties: { a: { $ref: `${inner2}#/definitions/x` }, b: { $ref: inner2 } },
    });

    const pipelineId = await t.services.pipelines.create({
      name: `Sourced ${newId()}`,
      isMaster: true,
      dataSources: [
        { dataSubKind: 'rows', connectorType: 'manual', dataFromMaster: false, contentType: 'csv', dataModel: inner._id },
      ],
      dataSinks: [],
    });
    const moved = await t.services.versions.update('pipeline', me, { id: pipelineId, schemasToUpdate: [inner._id] });
    const p2 = await t.services.pipelines.stored(moved.success[0]?.newId ?? '');
    expect(p2?.dataSources[0]?.dataModel).toBe(inner2);
  });

  it('answers an empty success list when nothing chosen has a newer version', async () => {
    const { pipelineId } = await versionChain(t, me.userId);
    expect(await t.services.versions.update('pipeline', me, { id: pipelineId, schemasToUpdate: [newId()] })).toEqual({
      success: [],
    });
  });

  it('gives new versions made at the same time different numbers', async () => {
    const doc = await t.services.schemas.create({ name: `Busy ${newId()}`, jsonSchema: {} });
    const made = await Promise.all([1, 2, 3].map(() => post('/schemas/version/new', { id: doc._id })));
    for (const res of made) expect([200, 409], res.body.message).toContain(res.status);
    const numbers = made.filter((r) => r.status === 200).map((r) => r.body.data.version);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect((await versionsOf(doc._id)).map((v: { version: number }) => v.version)).toEqual([
      1,
      ...[...numbers].sort((x, y) => x - y),
    ]);
  });

  it('walks data models that point at each other without looping', async () => {
    const a = await t.services.schemas.create({ name: `Ring A ${newId()}`, jsonSchema: {} });
    const b = await t.services.schemas.create({ name: `Ring B ${newId()}`, jsonSchema: { $ref: a._id } });
    const saved = await post('/schemas', { ...a, jsonSchema: { items: { $ref: b._id } } });
    expect(saved.status, saved.body.message).toBe(200);
    const b2 = (await t.services.versions.newVersion('schema', me, b._id))._id;
    const report = await t.services.versions.compute('schema', a._id, superAdmin());
    expect(report.data.schemas).toMatchObject([{ doc: { _id: b._id }, toUpdate: { _id: b2 } }]);
    const applied = await t.services.versions.update('schema', me, { id: a._id, schemasToUpdate: [b._id] });
    expect(applied.success).toHaveLength(1);
    expect((await t.services.schemas.find(applied.success[0]?.newId ?? '', superAdmin())).jsonSchema).toEqual({
      items: { $ref: b2 },
    });
  });

  it('refuses every write to a read-only document', async () => {
    const doc = await t.services.schemas.create({ name: `Fixed ${newId()}`, jsonSchema: {} });
    await t.ctx.db.kysely.updateTable('schemas').set({ read_only: true }).where('id', '=', doc._id).execute();
    for (const [url, body] of [
      ['/schemas/version/lock', { id: doc._id }],
      ['/schemas/version/new', { id: doc._id }],
      ['/schemas/version/delete', { id: doc._id }],
      ['/schemas', { _id: doc._id, name: doc.name, version: 1, sys_version: 1, jsonSchema: {} }],
    ] as const) {
      const res = await post(url, body);
      expect(res.status, url).toBe(403);
      expect(res.body.message).toBe('This schema is read-only.');
    }
  });
});

describe('the component version calls', () => {
  it('lock, compute and update a component through its calls; each version runs with its own data models', async () => {
    const { schema, component } = await versionChain(t, me.userId);
    const refused = await post('/components/version/lock', { id: component._id });
    expect(refused.status).toBe(409);
    const locked = await post('/components/version/lock', { id: component._id, force: true });
    expect(locked.body.data.locked.map((d: { _id: string }) => d._id)).toEqual([schema._id, component._id]);

    const v2 = (await post('/schemas/version/new', { id: schema._id })).body.data;
    const strict = { type: 'object', properties: { code: { type: 'integer' } } };
    const saved = await post('/schemas', { _id: v2._id, name: v2.name, version: 2, sys_version: 1, jsonSchema: strict });
    expect(saved.status, saved.body.message).toBe(200);
    const report = await get(`/components/version/compute?id=${component._id}`);
    expect(report.body.data.data.schemas).toMatchObject([{ doc: { _id: schema._id }, needUpdate: true, newVersionNumber: 2 }]);

    const applied = await post('/components/version/update', {
      update_data: { id: component._id, schemasToUpdate: [schema._id] },
    });
    expect(applied.body.data.success).toEqual([
      { name: component.name, old_version: 1, new_version: 2, newId: expect.any(String) },
    ]);
    const c2 = applied.body.data.success[0].newId as string;
    expect((await get(`/components/version?id=${c2}`)).body.data.map((v: { version: number }) => v.version)).toEqual([1, 2]);

    const payload = { payload: { in: { code: 'A1' } } };
    const v1Run = await post(`/components/${component._id}/execute`, payload);
    expect(v1Run.status, v1Run.body.message).toBe(200);
    expect(v1Run.body.data.output).toEqual({ out: { code: 'A1' } });
    const v2Run = await post(`/components/${c2}/execute`, payload);
    expect(v2Run.status).toBe(422);
    expect(v2Run.body.message).toContain(`data model "${schema.name}" v2`);

    const user = (await t.signedIn(['user'])).token;
    expect((await t.call('POST', '/components/version/new', { token: user, body: { id: c2 } })).status).toBe(403);
  });
});

describe('messages of the version calls', () => {
  it("answers 'Document not found' for a version that does not exist", async () => {
    for (const res of [
      await get(`/schemas/version?id=${newId()}`),
      await get(`/schemas/version/compute?id=${newId()}`),
      await post('/schemas/version/lock', { id: newId(), force: true }),
      await post('/schemas/version/new', { id: newId() }),
      await post('/schemas/version/delete', { id: newId() }),
      await post('/schemas/version/update', { update_data: { id: newId() } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Document not found');
    }
  });

  it("answers 'Update : Missing _id in document' and 'Update : Missing version in document'", async () => {
    const noId = await post('/schemas/version/update', { update_data: { schemasToUpdate: [] } });
    expect(noId.status).toBe(400);
    expect(noId.body.message).toBe('Update : Missing _id in document');
    const saveNoId = await post('/schemas', { name: `X ${newId()}`, sys_version: 1, jsonSchema: {} });
    expect(saveNoId.body.message).toBe('Update : Missing _id in document');
    const doc = await t.services.schemas.create({ name: `Y ${newId()}`, jsonSchema: {} });
    const noVersion = await post('/schemas', { _id: doc._id, name: doc.name, sys_version: 1, jsonSchema: {} });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body.message).toBe('Update : Missing version in document');
  });

  it('refuses a component version from the data model calls: another kind is another document', async () => {
    const { component } = await versionChain(t, me.userId);
    expect((await get(`/schemas/version?id=${component._id}`)).body.message).toBe('Document not found');
  });
});

describe('an update does not carry a data model that breaks a node rule into a new version', () => {
  it('answers 400 with the rule message and writes nothing; a new version made by hand is allowed, to fix it', async () => {
    const inner = await t.services.schemas.create({ name: `Ref target ${newId()}`, jsonSchema: { type: 'string' } });
    const outer = await t.services.schemas.create({
      name: `Old row ${newId()}`,
      jsonSchema: { type: 'object', properties: { a: { $ref: inner._id } } },
    });
    // A row saved before the rules existed: a string node holding properties.
    const broken = { type: 'object', properties: { a: { $ref: inner._id }, s: { type: 'string', properties: {} } } };
    await t.ctx.db.kysely
      .updateTable('schemas')
      .set({ json_schema: JSON.stringify(broken) })
      .where('id', '=', outer._id)
      .execute();
    const inner2 = (await t.services.versions.newVersion('schema', me, inner._id))._id;
    const before = (await versionsOf(outer._id)).length;
    const refused = await post('/schemas/version/update', { update_data: { id: outer._id, schemasToUpdate: [inner2] } });
    expect([refused.status, refused.body.message]).toEqual([400, 'A string node cannot take a properties node here']);
    expect((await versionsOf(outer._id)).length).toBe(before);
    const fixable = await post('/schemas/version/new', { id: outer._id });
    expect(fixable.status).toBe(200);
  });
});
