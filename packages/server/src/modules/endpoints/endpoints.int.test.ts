import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPipeline } from '../../../test/factories.ts';
import { csvSource } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { hashToken } from '../../platform/auth/secrets.ts';
import { newId } from '../../platform/ids.ts';

// Publishing a pipeline with an endpoint data source, listing, reading and un-publishing it: the
// roles of the Endpoints screen, the caller's badges on the pipeline, a key shown once and stored
// hashed, replaced by a re-publish.

let t: TestApp;
let manager: string;
beforeAll(async () => {
  t = await createTestApp();
  manager = (await t.signedIn(['manager'])).token;
});
afterAll(async () => {
  await t.close();
});

const endpointPipeline = async (name = 'prices') =>
  (await buildPipeline(t, { name, dataSources: [csvSource('prices', { connectorType: 'endpoint', contentType: 'json' })] })).id;
const publish = (body: Record<string, unknown>, token = manager) =>
  t.call('POST', '/pipelines/publish-endpoint', { token, body });
const lockWithBadge = (id: string, key: 'read' | 'write') =>
  t.ctx.db.kysely
    .updateTable('pipelines')
    .set({ tags: JSON.stringify({ read: key === 'read' ? [[newId()]] : [], write: [[newId()]] }) })
    .where('id', '=', id)
    .execute();

describe('POST /pipelines/publish-endpoint', () => {
  it('publishes at the path asked, answers the key once and keeps only its hash', async () => {
    const id = await endpointPipeline();
    const res = await publish({ id, path: 'dealers/prices', callsPerMinute: 30 });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Pipeline is successfully published');
    const { apiKey, ...endpoint } = res.body.data;
    expect(apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(endpoint).toMatchObject({
      path: 'dealers/prices',
      pipelineId: id,
      pipelineName: 'prices',
      dataSubKind: 'prices',
      contentType: 'json',
      callsPerMinute: 30,
      isValid: true,
      route: `${t.ctx.config.publicUrl}/gdb-runtime/v1/dealers/prices`,
    });
    const stored = await t.ctx.db.kysely
      .selectFrom('endpoints')
      .selectAll()
      .where('id', '=', endpoint._id)
      .executeTakeFirstOrThrow();
    expect(stored.key_hash).toBe(hashToken(apiKey));
    expect(JSON.stringify(stored)).not.toContain(apiKey);
    const read = await t.call('GET', `/pipelines/deployed-endpoint/${endpoint._id}`, { token: manager });
    expect(read.body.data).not.toHaveProperty('apiKey');
    expect(await t.services.endpoints.byKey('DEALERS/prices', apiKey)).toMatchObject({ id: endpoint._id });
  });

  it('replaces the key on a re-publish, keeping the path and the endpoint', async () => {
    const id = await endpointPipeline('again');
    const first = (await publish({ id, path: 'again' })).body.data;
    const second = (await publish({ id })).body.data;
    expect(second).toMatchObject({ _id: first._id, path: 'again' });
    expect(second.apiKey).not.toBe(first.apiKey);
    expect(await t.services.endpoints.byKey('again', first.apiKey)).toBeUndefined();
    expect(await t.services.endpoints.byKey('again', second.apiKey)).toBeDefined();
  });

  it('refuses a pipeline without an endpoint source (400), an unknown one (404) and a path taken (409)', async () => {
    const manual = (await buildPipeline(t, { dataSources: [csvSource('files')] })).id;
    expect((await publish({ id: manual })).body.message).toBe('This pipeline has no endpoint data source.');
    expect((await publish({ id: newId() })).status).toBe(404);
    expect((await publish({ id: 'not-a-uuid' })).status).toBe(404);
    await publish({ id: await endpointPipeline(), path: 'taken' });
    const clash = await publish({ id: await endpointPipeline(), path: 'Taken' });
    expect([clash.status, clash.body.message]).toEqual([409, 'Another pipeline is published at this path.']);
  });

  it('refuses paths that could leave the runtime prefix', async () => {
    const id = await endpointPipeline();
    for (const path of ['../users/login', 'a/../b', '/a', 'a/', 'a b', 'a?b', 'x'.repeat(201)]) {
      expect((await publish({ id, path })).status, path).toBe(422);
    }
  });
});

describe('access to endpoints', () => {
  it('admits managers and super-admins only', async () => {
    const id = await endpointPipeline();
    for (const role of ['user', 'admin'] as const) {
      const { token } = await t.signedIn([role]);
      expect((await publish({ id }, token)).status, role).toBe(403);
      expect((await t.call('GET', '/pipelines/deployed-endpoint', { token })).status, role).toBe(403);
      expect((await t.call('GET', '/pipelines/get-runtime-api-url', { token })).status, role).toBe(403);
      expect((await t.call('DELETE', '/pipelines/deployed-endpoint', { token, body: { id } })).status, role).toBe(403);
    }
    expect((await t.call('GET', '/pipelines/deployed-endpoint')).status).toBe(401);
    const boss = await t.signedIn(['super-admin']);
    expect((await publish({ id }, boss.token)).status).toBe(200);
    const url = await t.call('GET', '/pipelines/get-runtime-api-url', { token: manager });
    expect(url.body.data).toEqual({ url: `${t.ctx.config.publicUrl}/gdb-runtime/v1` });
  });

  it("follows the caller's badges on the pipeline: no write, no publish or un-publish; no read, not listed", async () => {
    const writeLocked = await endpointPipeline('write locked');
    const published = (await publish({ id: writeLocked, path: 'write-locked' })).body.data;
    await lockWithBadge(writeLocked, 'write');
    expect((await publish({ id: writeLocked })).status).toBe(403);
    expect((await t.call('DELETE', '/pipelines/deployed-endpoint', { token: manager, body: { id: published._id } })).status).toBe(
      403,
    );
    expect((await t.call('GET', `/pipelines/deployed-endpoint/${published._id}`, { token: manager })).status).toBe(200);

    const readLocked = await endpointPipeline('read locked');
    const hidden = (await publish({ id: readLocked, path: 'read-locked' })).body.data;
    await lockWithBadge(readLocked, 'read');
    const listed = (await t.call('GET', '/pipelines/deployed-endpoint', { token: manager })).body.data.map(
      (e: { _id: string }) => e._id,
    );
    expect(listed).toContain(published._id);
    expect(listed).not.toContain(hidden._id);
    expect((await t.call('GET', `/pipelines/deployed-endpoint/${hidden._id}`, { token: manager })).status).toBe(403);
    const boss = await t.signedIn(['super-admin']);
    expect((await t.call('GET', `/pipelines/deployed-endpoint/${hidden._id}`, { token: boss.token })).status).toBe(200);
  });
});

describe('DELETE /pipelines/deployed-endpoint', () => {
  it('un-publishes by endpoint or pipeline id; the key stops working', async () => {
    const id = await endpointPipeline();
    const { _id, apiKey } = (await publish({ id, path: 'short-lived' })).body.data;
    const res = await t.call('DELETE', '/pipelines/deployed-endpoint', { token: manager, body: { id } });
    expect([res.status, res.body.data]).toEqual([200, { _id }]);
    expect(await t.services.endpoints.byKey('short-lived', apiKey)).toBeUndefined();
    expect((await t.call('GET', `/pipelines/deployed-endpoint/${_id}`, { token: manager })).status).toBe(404);
    expect((await t.call('DELETE', '/pipelines/deployed-endpoint', { token: manager, body: { id: _id } })).status).toBe(404);
  });

  it('keeps an endpoint whose pipeline is gone, listed as invalid, until it is un-published', async () => {
    const id = await endpointPipeline('doomed');
    const { _id } = (await publish({ id, path: 'doomed' })).body.data;
    await t.ctx.db.kysely.deleteFrom('pipelines').where('id', '=', id).execute();
    const row = (await t.call('GET', '/pipelines/deployed-endpoint', { token: manager })).body.data.find(
      (e: { _id: string }) => e._id === _id,
    );
    expect(row).toMatchObject({ pipelineName: null, isValid: false, path: 'doomed' });
    expect((await t.call('DELETE', '/pipelines/deployed-endpoint', { token: manager, body: { id: _id } })).status).toBe(200);
  });
});
