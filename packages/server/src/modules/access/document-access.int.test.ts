import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPipeline, buildUpload } from '../../../test/factories.ts';
import { connectLive, type LiveTestClient, listenLocal } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let boss: string;
/** A manager without the badge, and one holding it. */
let outsider: string;
let insider: string;
let secret: string;
const clients: LiveTestClient[] = [];

const signIn = async (roles: ('manager' | 'admin')[], badges: string[]) => {
  const user = await t.createUser(roles);
  await t.ctx.db.kysely.updateTable('users').set({ project_tags: badges }).where('id', '=', user.id).execute();
  return t.login(user.user_name);
};

beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  secret = (await t.call('POST', '/tags', { token: boss, body: { name: 'Secret', type: 'project' } })).body.data._id;
  outsider = await signIn(['manager'], []);
  insider = await signIn(['manager'], [secret]);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, body?: unknown) =>
  t.call(method, url, { token, ...(body === undefined ? {} : { body }) });
const badge = (id: string, type: string, read: string[][], write: string[][] = []) =>
  call('POST', '/tags/update-document-tags', boss, { id, type, tags: { read, write } });
const schema = async (name: string, jsonSchema: Record<string, unknown> = { type: 'object' }, folder: string | null = null) =>
  (await call('POST', '/schemas', boss, { name, folder, jsonSchema })).body.data as { _id: string; sys_version: number };
const folder = async (name: string, kind: string, parent?: string) =>
  (await call('POST', '/folders', boss, { name, kind, ...(parent ? { parent } : {}) })).body.data.id as string;
const tree = async (kind: string, token: string) =>
  (await call('GET', `/folders/tree?kind=${kind}`, token)).body.data[0] as TreeNode;
const inTree = (node: TreeNode, value: string): boolean => node.value === value || node.children.some((c) => inTree(c, value));
const listed = async (token: string) =>
  ((await call('GET', '/schemas/list', token)).body.data as { _id: string }[]).map((s) => s._id);

describe('a data model whose badges the caller does not hold', () => {
  it('is refused when opened or written, and absent from the tree, the list and the picker', async () => {
    const doc = await schema('Secret model');
    expect((await badge(doc._id, 'schema', [[secret]], [[secret]])).status).toBe(200);
    for (const url of [
      `/schemas/find?id=${doc._id}`,
      `/schemas/version?id=${doc._id}`,
      `/schemas/version/compute?id=${doc._id}`,
    ]) {
      expect([url, (await call('GET', url, outsider)).status]).toEqual([url, 403]);
      expect([url, (await call('GET', url, insider)).status]).toEqual([url, 200]);
    }
    expect((await call('GET', '/schemas/byname?name=Secret%20model', outsider)).status).toBe(403);
    const save = { _id: doc._id, name: 'Secret model', version: 1, sys_version: doc.sys_version, jsonSchema: { type: 'string' } };
    expect((await call('POST', '/schemas', outsider, save)).status).toBe(403);
    expect((await call('POST', '/schemas/version/new', outsider, { id: doc._id })).status).toBe(403);
    expect((await call('POST', '/schemas/version/delete', outsider, { id: doc._id })).status).toBe(403);
    expect(inTree(await tree('schema', outsider), doc._id)).toBe(false);
    expect(inTree(await tree('schema', insider), doc._id)).toBe(true);
    expect(await listed(outsider)).not.toContain(doc._id);
    expect(await listed(insider)).toContain(doc._id);
    const picker = async (token: string) => (await call('GET', `/schemas?ids=${doc._id}`, token)).body.data as unknown[];
    expect([(await picker(outsider)).length, (await picker(insider)).length]).toEqual([0, 1]);
    expect((await call('POST', '/schemas', insider, save)).status).toBe(200);
  });

  it('is left out of the update report of a data model that uses it', async () => {
    const hidden = await schema('Secret part');
    const whole = await schema('Open whole', { type: 'object', properties: { part: { $ref: hidden._id } } });
    await call('POST', '/schemas/version/new', boss, { id: hidden._id });
    await badge(hidden._id, 'schema', [[secret]]);
    const report = async (token: string) =>
      (
        (await call('GET', `/schemas/version/compute?id=${whole._id}`, token)).body.data.data.schemas as {
          doc: { _id: string };
        }[]
      ).map((e) => e.doc._id);
    expect(await report(insider)).toEqual([hidden._id]);
    expect(await report(outsider)).toEqual([]);
  });

  it('inherits the badges of a folder two levels up', async () => {
    const top = await folder('Inherited top', 'schema');
    const middle = await folder('Inherited middle', 'schema', top);
    const doc = await schema('Inherited model', { type: 'object' }, middle);
    await badge(top, 'folder', [[secret]]);
    const outsiderTree = await tree('schema', outsider);
    expect([inTree(outsiderTree, top), inTree(outsiderTree, middle), inTree(outsiderTree, doc._id)]).toEqual([
      false,
      false,
      false,
    ]);
    expect(inTree(await tree('schema', insider), doc._id)).toBe(true);
    expect((await call('GET', `/schemas/find?id=${doc._id}`, outsider)).status).toBe(403);
    expect(await listed(outsider)).not.toContain(doc._id);
    expect(await listed(insider)).toContain(doc._id);
  });

  it('refuses a move without write on the destination, and on the item moved', async () => {
    const closed = await folder('Write closed', 'schema');
    const open = await folder('Write open', 'schema');
    await badge(closed, 'folder', [], [[secret]]);
    const doc = await schema('Movable model');
    const sub = await folder('Movable folder', 'schema');
    expect((await call('POST', '/schemas/reparent', outsider, { id: doc._id, parentId: closed })).status).toBe(403);
    expect((await call('POST', '/folders/reparent', outsider, { id: sub, parentId: closed })).status).toBe(403);
    expect((await call('POST', '/folders', outsider, { name: 'Inside', kind: 'schema', parent: closed })).status).toBe(403);
    expect((await call('POST', '/schemas/reparent', insider, { id: doc._id, parentId: closed })).status).toBe(200);
    // Now inside a folder the outsider may not write: moving it out is refused too.
    expect((await call('POST', '/schemas/reparent', outsider, { id: doc._id, parentId: open })).status).toBe(403);
    expect((await call('POST', '/schemas/reparent', insider, { id: doc._id, parentId: open })).status).toBe(200);
  });

  it('never lets a root be deleted, even by a super-admin', async () => {
    const root = await tree('schema', boss);
    const res = await call('DELETE', '/folders', boss, {
      id: root.value,
      kind: 'schema',
      withFolders: true,
      withDocuments: true,
    });
    expect([res.status, res.body.message]).toEqual([403, 'A root folder cannot be deleted.']);
  });
});

describe('a component whose badges the caller does not hold', () => {
  it('is refused when opened, run or saved, and absent from the list and the picker by ids', async () => {
    const made = (await call('POST', '/components', boss, { name: 'Secret component' })).body.data as { _id: string };
    await badge(made._id, 'component', [[secret]], [[secret]]);
    const ids = async (url: string, token: string) =>
      ((await call('GET', url, token)).body.data as { _id: string }[]).map((c) => c._id);
    expect(await ids('/components/list', outsider)).not.toContain(made._id);
    expect(await ids('/components/list', insider)).toContain(made._id);
    expect(await ids(`/components?ids=${made._id}`, outsider)).toEqual([]);
    expect((await call('GET', `/components/find?id=${made._id}`, outsider)).status).toBe(403);
    expect((await call('POST', `/components/${made._id}/execute`, outsider, { payload: {} })).status).toBe(403);
    const found = (await call('GET', `/components/find?id=${made._id}`, insider)).body.data;
    expect((await call('POST', '/components', outsider, { ...found, description: 'changed' })).status).toBe(403);
    expect((await call('POST', '/components', insider, { ...found, description: 'changed' })).status).toBe(200);
    expect(inTree(await tree('component', outsider), made._id)).toBe(false);
  });
});

describe('a pipeline whose badges the caller does not hold', () => {
  it('is absent from the lists, the assignable picker and live data, and refused when opened', async () => {
    const { id: hidden } = await buildPipeline(t, { name: 'Secret pipeline', isMaster: true });
    const { id: open } = await buildPipeline(t, { name: 'Open pipeline', isMaster: true });
    await badge(hidden, 'pipeline', [[secret]]);
    const names = async (token: string) =>
      ((await call('GET', '/pipelines', token)).body.data as { _id: string }[]).map((p) => p._id);
    expect(await names(outsider)).not.toContain(hidden);
    expect(await names(outsider)).toContain(open);
    expect(await names(insider)).toContain(hidden);
    expect((await call('GET', `/pipelines/id?id=${hidden}`, outsider)).status).toBe(403);
    expect(inTree(await tree('pipeline', outsider), hidden)).toBe(false);
    const admin = await signIn(['admin'], []);
    const user = await t.createUser(['user']);
    // The admin manages users sharing one of their group badges.
    const team = (await t.call('POST', '/tags', { token: boss, body: { name: 'Team', type: 'group' } })).body.data._id;
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ admin_tags: [team] })
      .execute();
    t.services.auth.sessions.clear();
    const available = (await call('GET', `/users/pipelinesFor?id=${user.id}`, admin)).body.data.availablePipelines as {
      name: string;
    }[];
    expect(available.map((p) => p.name)).toContain('Open pipeline');
    expect(available.map((p) => p.name)).not.toContain('Secret pipeline');

    const hiddenUpload = await buildUpload(t, hidden);
    const openUpload = await buildUpload(t, open);
    const url = await listenLocal(t.app);
    const c = await connectLive(url, outsider);
    clients.push(c);
    c.socket.emit('subscribe', { collectionName: 'uploads', filter: {}, subscriptionId: 'all', token: outsider });
    const init = await c.waitFor(() => c.inits[0]);
    const ids = init.data.map((d) => d._id);
    expect(ids).toContain(openUpload);
    expect(ids).not.toContain(hiddenUpload);
    await t.ctx.db.kysely.updateTable('uploads').set({ status: 'valid' }).where('id', 'in', [hiddenUpload, openUpload]).execute();
    const change = await c.waitFor(() => c.changes[0]);
    expect(change.data.documentKey._id).toBe(openUpload);
    c.socket.emit('subscribe', {
      collectionName: 'uploads',
      filter: { _id: hiddenUpload },
      subscriptionId: 'one',
      token: outsider,
    });
    await c.waitFor(() => c.exceptions[0]);
    expect(c.changes.map((x) => x.data.documentKey._id)).not.toContain(hiddenUpload);
  });
});
