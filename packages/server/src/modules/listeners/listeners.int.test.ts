import os from 'node:os';
import { PASSWORD_PLACEHOLDER } from '@gdb/shared/listeners/listener.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPipeline } from '../../../test/factories.ts';
import { csvSource } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { decrypt } from '../../platform/auth/secrets.ts';
import { newId } from '../../platform/ids.ts';

// Publishing a pipeline with a listener data source, listing, reading and un-publishing it: the
// roles of the Listeners screen, the caller's badges on the pipeline, the broker address checks,
// the password stored encrypted and never answered, the state each instance reports.

let t: TestApp;
let manager: string;
beforeAll(async () => {
  t = await createTestApp({
    listeners: { enabled: true, privateRanges: ['127.0.0.0/8'], backoffMinMs: 50, backoffMaxMs: 200 },
  });
  manager = (await t.signedIn(['manager'])).token;
});
afterAll(async () => {
  await t.close();
});

const listenerPipeline = async (name = 'prices') =>
  (await buildPipeline(t, { name, dataSources: [csvSource('prices', { connectorType: 'listener', contentType: 'json' })] })).id;
const AMQP = { kind: 'amqp', url: 'amqp://127.0.0.1:5672', queue: 'prices' };
const publish = (body: Record<string, unknown>, token = manager) =>
  t.call('POST', '/pipelines/publish-listener', { token, body });
const lockWithBadge = (id: string, key: 'read' | 'write') =>
  t.ctx.db.kysely
    .updateTable('pipelines')
    .set({ tags: JSON.stringify({ read: key === 'read' ? [[newId()]] : [], write: [[newId()]] }) })
    .where('id', '=', id)
    .execute();
const stored = (id: string) => t.ctx.db.kysely.selectFrom('listeners').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /pipelines/publish-listener', () => {
  it('publishes with the form values and defaults, keeping the password encrypted and answering a placeholder', async () => {
    const id = await listenerPipeline();
    const res = await publish({ id, ...AMQP, username: 'guest', password: 'S3cret!pw' });
    expect([res.status, res.body.message]).toEqual([200, 'Pipeline is successfully published']);
    expect(res.body.data).toMatchObject({
      pipelineId: id,
      pipelineName: 'prices',
      isValid: true,
      dataSubKind: 'prices',
      kind: 'amqp',
      url: 'amqp://127.0.0.1:5672',
      queue: 'prices',
      jetStream: false,
      batchSize: 500,
      batchWaitMs: 1000,
      username: 'guest',
      password: PASSWORD_PLACEHOLDER,
      state: [],
    });
    const row = await stored(res.body.data._id);
    expect(JSON.stringify(row)).not.toContain('S3cret!pw');
    expect(decrypt(t.ctx.secrets.encryptionKey, row.password_sealed ?? '')).toBe('S3cret!pw');
    const read = await t.call('GET', `/pipelines/deployed-listener/${id}`, { token: manager });
    expect(JSON.stringify(read.body)).not.toContain('S3cret!pw');
    expect(read.body.data.password).toBe(PASSWORD_PLACEHOLDER);
    const listed = await t.call('GET', '/pipelines/deployed-listener', { token: manager });
    expect(JSON.stringify(listed.body)).not.toContain('S3cret!pw');
  });

  it('keeps what a re-publish leaves out or sends as the placeholder, and clears an empty password', async () => {
    const id = await listenerPipeline('again');
    const first = (await publish({ id, ...AMQP, password: 'pw1', batchSize: 50 })).body.data;
    const second = (await publish({ id, password: PASSWORD_PLACEHOLDER, queue: 'other' })).body.data;
    expect(second).toMatchObject({ _id: first._id, queue: 'other', batchSize: 50, kind: 'amqp', password: PASSWORD_PLACEHOLDER });
    expect(decrypt(t.ctx.secrets.encryptionKey, (await stored(first._id)).password_sealed ?? '')).toBe('pw1');
    const third = (await publish({ id, password: '' })).body.data;
    expect(third.password).toBe('');
    expect((await stored(first._id)).password_sealed).toBeNull();
  });

  it('refuses a pipeline without a listener source (400), an unknown one (404) and an incomplete form (422)', async () => {
    const manual = (await buildPipeline(t, { dataSources: [csvSource('files')] })).id;
    const res = await publish({ id: manual, ...AMQP });
    expect([res.status, res.body.message]).toEqual([400, 'This pipeline has no listener data source.']);
    expect((await publish({ id: newId(), ...AMQP })).status).toBe(404);
    expect((await publish({ id: 'not-a-uuid', ...AMQP })).status).toBe(404);
    const id = await listenerPipeline();
    const incomplete = await publish({ id, kind: 'amqp' });
    expect([incomplete.status, incomplete.body.message]).toEqual([
      422,
      'Give the broker kind, its connection URL and the queue, topic or subject.',
    ]);
  });

  it('refuses URLs of another scheme, with credentials, or reaching internal addresses not opened', async () => {
    const id = await listenerPipeline();
    const refused = async (body: Record<string, unknown>) => {
      const res = await publish({ id, ...AMQP, ...body });
      return [res.status, res.body.message];
    };
    expect(await refused({ url: 'http://127.0.0.1:5672' })).toEqual([422, 'The connection URL does not suit this broker kind.']);
    expect(await refused({ kind: 'mqtt', url: 'amqp://127.0.0.1:5672' })).toEqual([
      422,
      'The connection URL does not suit this broker kind.',
    ]);
    expect(await refused({ url: 'amqp://guest:guest@127.0.0.1:5672' })).toEqual([
      422,
      'Give the user name and password in their fields, not in the connection URL.',
    ]);
    const internal = 'The broker host is a loopback, private or internal address, which this server does not reach.';
    for (const url of ['amqp://10.0.0.1:5672', 'amqp://169.254.169.254', 'amqp://[::1]:5672', 'amqp://192.168.1.1']) {
      expect(await refused({ url }), url).toEqual([422, internal]);
    }
    expect((await refused({ url: 'amqp://no-such-host.invalid' }))[0]).toBe(422);
    expect(await refused({ jetStream: true })).toEqual([422, 'JetStream applies to NATS listeners only.']);
    for (const queue of ['a b', 'x'.repeat(201), '#', 'a/+/b', '']) expect((await refused({ queue }))[0], queue).toBe(422);
    expect((await refused({ batchSize: 0 }))[0]).toBe(422);
    expect((await refused({ batchWaitMs: 600_000 }))[0]).toBe(422);
  });
});

describe('access to listeners', () => {
  it('admits managers and super-admins only', async () => {
    const id = await listenerPipeline();
    for (const role of ['user', 'admin'] as const) {
      const { token } = await t.signedIn([role]);
      expect((await publish({ id, ...AMQP }, token)).status, role).toBe(403);
      expect((await t.call('GET', '/pipelines/deployed-listener', { token })).status, role).toBe(403);
      expect((await t.call('GET', `/pipelines/deployed-listener/${id}`, { token })).status, role).toBe(403);
      expect((await t.call('DELETE', '/pipelines/deployed-listener', { token, body: { id } })).status, role).toBe(403);
    }
    expect((await t.call('GET', '/pipelines/deployed-listener')).status).toBe(401);
    const boss = await t.signedIn(['super-admin']);
    expect((await publish({ id, ...AMQP }, boss.token)).status).toBe(200);
  });

  it("follows the caller's badges on the pipeline: no write, no publish or un-publish; no read, not listed", async () => {
    const writeLocked = await listenerPipeline('write locked');
    const published = (await publish({ id: writeLocked, ...AMQP })).body.data;
    await lockWithBadge(writeLocked, 'write');
    expect((await publish({ id: writeLocked })).status).toBe(403);
    const del = await t.call('DELETE', '/pipelines/deployed-listener', { token: manager, body: { id: published._id } });
    expect(del.status).toBe(403);
    expect((await t.call('GET', `/pipelines/deployed-listener/${published._id}`, { token: manager })).status).toBe(200);

    const readLocked = await listenerPipeline('read locked');
    const hidden = (await publish({ id: readLocked, ...AMQP })).body.data;
    await lockWithBadge(readLocked, 'read');
    const listed = (await t.call('GET', '/pipelines/deployed-listener', { token: manager })).body.data.map(
      (e: { _id: string }) => e._id,
    );
    expect(listed).toContain(published._id);
    expect(listed).not.toContain(hidden._id);
    expect((await t.call('GET', `/pipelines/deployed-listener/${hidden._id}`, { token: manager })).status).toBe(403);
  });
});

describe('DELETE /pipelines/deployed-listener', () => {
  it('un-publishes by listener or pipeline id', async () => {
    const id = await listenerPipeline();
    const { _id } = (await publish({ id, ...AMQP })).body.data;
    const res = await t.call('DELETE', '/pipelines/deployed-listener', { token: manager, body: { id } });
    expect([res.status, res.body.data]).toEqual([200, { _id }]);
    expect((await t.call('GET', `/pipelines/deployed-listener/${_id}`, { token: manager })).status).toBe(404);
    expect((await t.call('DELETE', '/pipelines/deployed-listener', { token: manager, body: { id: _id } })).status).toBe(404);
  });

  it('keeps a listener whose pipeline is gone, listed as invalid, until it is un-published', async () => {
    const id = await listenerPipeline('doomed');
    const { _id } = (await publish({ id, ...AMQP })).body.data;
    await t.ctx.db.kysely.deleteFrom('pipelines').where('id', '=', id).execute();
    const row = (await t.call('GET', '/pipelines/deployed-listener', { token: manager })).body.data.find(
      (e: { _id: string }) => e._id === _id,
    );
    expect(row).toMatchObject({ pipelineName: null, isValid: false });
    expect((await t.call('DELETE', '/pipelines/deployed-listener', { token: manager, body: { id: _id } })).status).toBe(200);
  });
});

describe('the state of a listener on each instance', () => {
  it('reports an error with its last error while its broker does not answer, and stopped once the runtime stops', async () => {
    await t.ctx.db.kysely.deleteFrom('listeners').execute();
    const id = await listenerPipeline('unreachable');
    const { _id } = (await publish({ id, kind: 'amqp', url: 'amqp://127.0.0.1:1', queue: 'nowhere' })).body.data;
    await t.services.listenerRuntime.start();
    try {
      let state: { hostname: string; state: string; last_error: string | null }[] = [];
      for (let i = 0; i < 100 && state[0]?.state !== 'error'; i += 1) {
        await new Promise((r) => setTimeout(r, 50));
        state = (await t.call('GET', `/pipelines/deployed-listener/${_id}`, { token: manager })).body.data.state;
      }
      expect(state).toEqual([{ hostname: os.hostname(), state: 'error', last_error: expect.stringMatching(/ECONNREFUSED/) }]);
    } finally {
      await t.services.listenerRuntime.stop();
    }
    const after = (await t.call('GET', `/pipelines/deployed-listener/${_id}`, { token: manager })).body.data.state;
    expect(after).toEqual([expect.objectContaining({ state: 'stopped' })]);
  });
});
