import { SYSTEM_SCHEMA_NAMES } from '@gdb/shared/schemas/system-schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { putSystemSchemas } from '../../platform/db/migrations/system-schemas.ts';

// The forms' data models, seeded by a migration on the database the run is given: locked,
// refused to managers whatever they try, changed by super-admins through new versions, upgraded
// by later migrations.

let t: TestApp;
let manager: string;
let superAdmin: string;
beforeAll(async () => {
  t = await createTestApp();
  manager = (await t.signedIn(['manager'])).token;
  superAdmin = (await t.signedIn(['super-admin'])).token;
});
afterAll(async () => {
  await t.close();
});

const byName = async (name: string, token = manager, app = t) =>
  (await app.call('GET', `/schemas/byname?name=${name}`, { token })).body.data;
const post = (url: string, body: unknown, token: string) => t.call('POST', url, { token, body });
const READ_ONLY = 'This schema is read-only.';

describe('system data models', () => {
  it('are present after the migrations, locked, describing their documents', async () => {
    // A database of its own, as the migrations leave it: the other tests here add versions to these schemas.
    const fresh = await createTestApp();
    try {
      const token = (await fresh.signedIn(['manager'])).token;
      const seeded = (name: string) => byName(name, token, fresh);
      for (const name of SYSTEM_SCHEMA_NAMES) {
        const found = await seeded(name);
        // The endpoint and listener forms were upgraded once (20261206T1400_endpoint_models, 20261206T1500_listener_models).
        const version = ['rt-source-endpoint', 'rt-endpoint-info', 'rt-listener-info'].includes(name) ? 2 : 1;
        expect(found, name).toMatchObject({ name, version, jsonSchema: { type: 'object' } });
        const doc = (await fresh.call('GET', `/schemas/find?id=${found._id}`, { token })).body.data;
        expect(doc.vLocked, name).toBe(true);
        expect(Object.keys(doc.jsonSchema.properties).length, name).toBeGreaterThan(0);
      }
      const sdk = (await seeded('rt-sdk-schema')).jsonSchema;
      expect(sdk.required).toEqual(['functionName', 'jsCode']);
      expect(sdk.properties.jsCode).toMatchObject({ type: 'string', ui: { widget: 'code' } });
      const component = (await seeded('rt-component')).jsonSchema;
      expect(component.properties.kind.enum).toEqual(['workflow', 'forEach', 'instruction', 'function']);
      expect(component.properties.links.items.required).toEqual(['name', 'fromPort', 'toPort']);
      const pipeline = (await seeded('rt-pipeline')).jsonSchema;
      expect(pipeline.properties.dataSources.items.properties.connectorType.enum).toEqual([
        'manual',
        'real-time',
        'endpoint',
        'listener',
      ]);
      const info = (await seeded('rt-endpoint-info')).jsonSchema;
      expect(info.required).toEqual(['name', 'path']);
      expect(Object.keys(info.properties)).toEqual(['name', 'path', 'description', 'callsPerMinute']);
      expect(info.properties.callsPerMinute).toMatchObject({ type: 'integer', minimum: 1, maximum: 6000, default: 600 });
      const source = (await seeded('rt-source-endpoint')).jsonSchema;
      expect(source.required).toEqual(['name', 'path', 'contentType']);
      expect(source.properties.contentType.enum).toEqual(['json', 'csv', 'excel', 'xml']);
      expect(new RegExp(source.properties.path.pattern).test('dealers/prices')).toBe(true);
      expect(new RegExp(source.properties.path.pattern).test('../x')).toBe(false);
      const listener = (await seeded('rt-listener-info')).jsonSchema;
      expect(listener.required).toEqual(['pipelineName', 'kind', 'url', 'queue']);
      expect(listener.properties.kind.enum).toEqual(['amqp', 'mqtt', 'nats']);
      expect(Object.keys(listener.properties)).toEqual([
        'pipelineName',
        'kind',
        'url',
        'queue',
        'jetStream',
        'batchSize',
        'batchWaitMs',
        'username',
        'password',
      ]);
    } finally {
      await fresh.close();
    }
  });

  it('say to a manager that they may not change them, and to a super-admin that they may', async () => {
    const { _id } = await byName('rt-component');
    const asManager = (await t.call('GET', `/schemas/find?id=${_id}`, { token: manager })).body.data;
    const asSuperAdmin = (await t.call('GET', `/schemas/find?id=${_id}`, { token: superAdmin })).body.data;
    expect([asManager.write_access, asSuperAdmin.write_access]).toEqual([false, true]);
    const listed = (await t.call('GET', `/schemas?ids=${_id}`, { token: manager })).body.data;
    expect(listed.map((d: { write_access: boolean }) => d.write_access)).toEqual([false]);
  });

  it("are left out of a manager's data model tree and shown in a super-admin's", async () => {
    const labels = async (token: string) => {
      const [root] = (await t.call('GET', '/folders/tree?kind=schema', { token })).body.data;
      const all: string[] = [];
      const walk = (node: { label: string; children?: unknown[] }) => {
        all.push(node.label);
        for (const c of node.children ?? []) walk(c as never);
      };
      walk(root);
      return all;
    };
    await post('/schemas', { name: 'Dealers', folder: null, jsonSchema: { type: 'object', properties: {} } }, manager);
    const asManager = await labels(manager);
    expect(asManager).toContain('Dealers');
    expect(asManager.filter((l) => l.startsWith('rt-'))).toEqual([]);
    expect((await labels(superAdmin)).filter((l) => l.startsWith('rt-')).sort()).toEqual([...SYSTEM_SCHEMA_NAMES].sort());
  });

  it('refuse a manager who saves, locks, deletes or makes a new version', async () => {
    const { _id } = await byName('rt-pipeline');
    const doc = (await t.call('GET', `/schemas/find?id=${_id}`, { token: manager })).body.data;
    const attempts = [
      post('/schemas/version/new', { id: _id }, manager),
      post('/schemas/version/lock', { id: _id, force: false }, manager),
      post('/schemas/version/delete', { id: _id }, manager),
      t.call('DELETE', `/schemas?id=${_id}`, { token: manager }),
      post('/schemas', { ...doc, jsonSchema: { type: 'object' } }, manager),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, res.body.message).toBe(403);
      expect(res.body.message).toBe(READ_ONLY);
    }
  });

  it('let a super-admin make a new version, save and lock it; managers stay refused on it', async () => {
    const { _id } = await byName('rt-listener-info');
    const created = await post('/schemas/version/new', { id: _id }, superAdmin);
    expect(created.status, created.body.message).toBe(200);
    const draftId = created.body.data._id;
    const draft = (await t.call('GET', `/schemas/find?id=${draftId}`, { token: superAdmin })).body.data;
    expect(draft).toMatchObject({ version: 3, vLocked: false, vParents: [_id] });
    const jsonSchema = { ...draft.jsonSchema, title: 'Listener (v3)' };
    const refused = await post('/schemas', { ...draft, jsonSchema }, manager);
    expect(refused.status).toBe(403);
    const saved = await post('/schemas', { ...draft, jsonSchema }, superAdmin);
    expect(saved.status, saved.body.message).toBe(200);
    expect((await post('/schemas/version/lock', { id: draftId, force: false }, superAdmin)).status).toBe(200);
    expect(await byName('rt-listener-info')).toMatchObject({ _id: draftId, version: 3, jsonSchema: { title: 'Listener (v3)' } });
  });

  it('are upgraded by a migration: a new locked version after the newest, which the name reads', async () => {
    const before = await byName('rt-endpoint-info');
    await putSystemSchemas(t.ctx.db.kysely as never, { 'rt-endpoint-info': { type: 'object', title: 'Endpoint (upgraded)' } });
    const after = await byName('rt-endpoint-info');
    expect(after).toMatchObject({ version: before.version + 1, jsonSchema: { title: 'Endpoint (upgraded)' } });
    const versions = (await t.call('GET', `/schemas/version?id=${after._id}`, { token: manager })).body.data;
    expect(versions.at(-1)).toMatchObject({ _id: after._id, vLocked: true, vParents: [before._id] });
  });
});
