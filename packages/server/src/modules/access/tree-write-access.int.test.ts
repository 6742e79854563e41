import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let boss: string;
let outsider: string;
let insider: string;
let secret: string;

const signIn = async (badges: string[]) => {
  const user = await t.createUser(['manager']);
  await t.ctx.db.kysely.updateTable('users').set({ project_tags: badges }).where('id', '=', user.id).execute();
  return t.login(user.user_name);
};

beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  secret = (await t.call('POST', '/tags', { token: boss, body: { name: 'Tree secret', type: 'project' } })).body.data._id;
  outsider = await signIn([]);
  insider = await signIn([secret]);
});
afterAll(async () => {
  await t.close();
});

const call = (method: 'GET' | 'POST', url: string, token: string, body?: unknown) =>
  t.call(method, url, { token, ...(body === undefined ? {} : { body }) });
const find = (node: TreeNode, value: string): TreeNode | undefined =>
  node.value === value ? node : node.children.map((c) => find(c, value)).find(Boolean);
/** Whether each named node of the schema tree is writable, as the caller is told. */
const writable = async (token: string, ...ids: string[]) => {
  const root = (await call('GET', '/folders/tree?kind=schema', token)).body.data[0] as TreeNode;
  return ids.map((id) => find(root, id)?.write_access);
};

describe('the explorer tree says on each node whether the caller may change it', () => {
  it('from the badges of the node and of every folder above it', async () => {
    const closed = (await call('POST', '/folders', boss, { name: 'Write closed', kind: 'schema' })).body.data.id as string;
    const inner = (await call('POST', '/folders', boss, { name: 'Inner', kind: 'schema', parent: closed })).body.data
      .id as string;
    const inside = (await call('POST', '/schemas', boss, { name: 'Inside', folder: inner, jsonSchema: {} })).body.data._id;
    const open = (await call('POST', '/schemas', boss, { name: 'Open model', jsonSchema: {} })).body.data._id;
    const badged = (await call('POST', '/schemas', boss, { name: 'Badged model', jsonSchema: {} })).body.data._id;
    await call('POST', '/tags/update-document-tags', boss, { id: closed, type: 'folder', tags: { read: [], write: [[secret]] } });
    await call('POST', '/tags/update-document-tags', boss, { id: badged, type: 'schema', tags: { read: [], write: [[secret]] } });
    const root = ((await call('GET', '/folders/tree?kind=schema', outsider)).body.data[0] as TreeNode).value;
    expect(await writable(outsider, root, closed, inner, inside, open, badged)).toEqual([true, false, false, false, true, false]);
    expect(await writable(insider, root, closed, inner, inside, open, badged)).toEqual([true, true, true, true, true, true]);
  });

  it('false on a read-only document, even for a super-admin', async () => {
    const frozen = (await call('POST', '/schemas', boss, { name: 'Frozen model', jsonSchema: {} })).body.data._id;
    await t.ctx.db.kysely.updateTable('schemas').set({ read_only: true }).where('id', '=', frozen).execute();
    expect(await writable(boss, frozen)).toEqual([false]);
    expect(await writable(insider, frozen)).toEqual([false]);
    const res = await call('POST', '/schemas/reparent', boss, {
      id: frozen,
      parentId: ((await call('GET', '/folders/tree?kind=schema', boss)).body.data[0] as TreeNode).value,
    });
    expect(res.status).toBe(403);
  });

  it('leaves the system data models out for all but super-admins, whose saves of them are refused', async () => {
    const system = (await call('GET', '/schemas/byname?name=rt-pipeline', boss)).body.data._id as string;
    const own = (await call('POST', '/schemas', boss, { name: 'Not a system model', jsonSchema: {} })).body.data._id;
    // Not in a manager's tree at all (undefined): they may neither change nor pick them.
    expect(await writable(insider, system, own)).toEqual([undefined, true]);
    expect(await writable(boss, system, own)).toEqual([true, true]);
    // What the tree says is what the server does: a manager's badge change or move is refused.
    const badges = await call('POST', '/tags/update-document-tags', insider, {
      id: system,
      type: 'schema',
      tags: { read: [], write: [[secret]] },
    });
    expect(badges.status).toBe(403);
  });
});
