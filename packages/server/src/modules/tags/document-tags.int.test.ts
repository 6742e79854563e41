import type { Role } from '@gdb/shared/auth/roles';
import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
let boss: string;
let project: string;
let other: string;
let group: string;
beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  const badge = async (name: string, type: string) =>
    (await t.call('POST', '/tags', { token: boss, body: { name, type } })).body.data._id as string;
  project = await badge('Docs project', 'project');
  other = await badge('Docs other', 'project');
  group = await badge('Docs group', 'group');
});
afterAll(async () => {
  await t.close();
});

const as = async (roles: Role[], projectTags: string[] = []) => {
  const user = await t.createUser(roles);
  await t.ctx.db.kysely.updateTable('users').set({ project_tags: projectTags }).where('id', '=', user.id).execute();
  return t.login(user.user_name);
};
const update = (body: Record<string, unknown>, token = boss) => t.call('POST', '/tags/update-document-tags', { token, body });
const schema = async (name: string) =>
  (await t.call('POST', '/schemas', { token: boss, body: { name, folder: null, jsonSchema: { type: 'object' } } })).body.data
    ._id as string;
const find = (node: TreeNode, value: string): TreeNode | undefined =>
  node.value === value ? node : node.children.map((c) => find(c, value)).find(Boolean);
const tree = async (kind: string, token = boss) =>
  (await t.call('GET', `/folders/tree?kind=${kind}`, { token })).body.data[0] as TreeNode;

describe('document badges', () => {
  it('sets read, write and metadata badges on every version of a document, shown on its tree node', async () => {
    const id = await schema('Badged model');
    const next = await t.call('POST', '/schemas/version/new', { token: boss, body: { id } });
    expect(next.status).toBe(200);
    const res = await update({
      id,
      type: 'schema',
      tags: { read: [[project], []], write: [[project, other]] },
      metadataTags: [other],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id,
      type: 'schema',
      tags: { read: [[project]], write: [[project, other]] },
      metadataTags: [other],
      versions: 2,
    });
    const node = find(await tree('schema'), id) ?? (await tree('schema')).children.find((c) => c.label === 'Badged model');
    expect(node).toMatchObject({ tags: { read: [[project]], write: [[project, other]] }, metadataTags: [other] });
  });

  it('sets the badges of a folder, inherited by what it holds', async () => {
    const folder = (await t.call('POST', '/folders', { token: boss, body: { name: 'Badged folder', kind: 'schema' } })).body.data;
    const id = await schema('Held model');
    expect((await t.call('POST', '/schemas/reparent', { token: boss, body: { id, parentId: folder.id } })).status).toBe(200);
    const res = await update({ id: folder.id, type: 'folder', tags: { read: [[project]], write: [] } });
    expect([res.status, res.body.data.versions]).toEqual([200, 0]);
    expect(find(await tree('schema'), folder.id)?.tags).toEqual({ read: [[project]], write: [] });
    const outsider = await as(['manager']);
    expect(find(await tree('schema', outsider), id)).toBeUndefined();
    const insider = await as(['manager'], [project]);
    expect(find(await tree('schema', insider), id)?.label).toBe('Held model');
  });

  it('is the admins and super-admins call, on the kinds their screens show', async () => {
    const id = await schema('Role matrix model');
    const pipeline = await t.services.pipelines.create({
      name: 'Role matrix pipeline',
      isMaster: true,
      dataSources: [],
      dataSinks: [],
    });
    const cases: [Role[], string, string, number][] = [
      [['super-admin'], 'schema', id, 200],
      [['admin', 'manager'], 'schema', id, 200],
      [['admin'], 'pipeline', pipeline, 200],
      [['admin'], 'schema', id, 403],
      [['manager'], 'schema', id, 403],
      [['manager'], 'pipeline', pipeline, 403],
      [['user'], 'pipeline', pipeline, 403],
    ];
    for (const [roles, type, target, status] of cases) {
      const res = await update({ id: target, type, tags: { read: [], write: [] } }, await as(roles));
      expect([roles, type, res.status]).toEqual([roles, type, status]);
    }
    const body = { id, type: 'schema', tags: { read: [], write: [] } };
    expect((await t.call('POST', '/tags/update-document-tags', { body })).status).toBe(401);
  });

  it('leaves out what the admin may not read and refuses what they may not write', async () => {
    const hidden = await schema('Hidden from admin');
    await update({ id: hidden, type: 'schema', tags: { read: [[project]], write: [] } });
    const admin = await as(['admin', 'manager']);
    const unseen = await update({ id: hidden, type: 'schema', tags: { read: [], write: [] } }, admin);
    expect([unseen.status, unseen.body.message]).toEqual([404, 'Document not found']);
    const locked = await schema('Write badged for admin');
    await update({ id: locked, type: 'schema', tags: { read: [], write: [[other]] } });
    const refused = await update({ id: locked, type: 'schema', tags: { read: [], write: [] } }, admin);
    expect([refused.status, refused.body.message]).toEqual([403, 'You are not allowed to change the badges of this document.']);
    const holder = await as(['admin', 'manager'], [other]);
    expect((await update({ id: locked, type: 'schema', tags: { read: [], write: [] } }, holder)).status).toBe(200);
  });

  it('refuses unknown badges, group badges and malformed input with a clear message', async () => {
    const id = await schema('Hostile model');
    const ghost = newId();
    const unknown = await update({ id, type: 'schema', tags: { read: [[project, ghost]], write: [] } });
    expect([unknown.status, unknown.body.message]).toEqual([422, `These badges do not exist: ${ghost}.`]);
    const meta = await update({ id, type: 'schema', tags: { read: [], write: [] }, metadataTags: [ghost] });
    expect([meta.status, meta.body.message]).toEqual([422, `These badges do not exist: ${ghost}.`]);
    const grouped = await update({ id, type: 'schema', tags: { read: [], write: [[group]] } });
    expect([grouped.status, grouped.body.message]).toEqual([
      422,
      'Only project badges open documents, not the group badges Docs group.',
    ]);
    const bad: Record<string, unknown>[] = [
      { id: 'nope', type: 'schema', tags: { read: [], write: [] } },
      { id, type: 'user', tags: { read: [], write: [] } },
      { id, type: 'schema', tags: { read: [['not-an-id']], write: [] } },
      { id, type: 'schema', tags: { read: [project], write: [] } },
      { id, type: 'schema', tags: { read: [] } },
      { id, type: 'schema', tags: { read: Array.from({ length: 51 }, () => [project]), write: [] } },
      { id, type: 'schema', tags: { read: [], write: [] }, metadataTags: Array.from({ length: 201 }, () => project) },
    ];
    for (const body of bad) expect((await update(body)).status).toBe(422);
    expect((await update({ id, type: 'schema', tags: { read: [], write: [] }, metadataTags: [project] })).status).toBe(200);
    expect((await update({ id: newId(), type: 'schema', tags: { read: [], write: [] } })).status).toBe(404);
    expect((await update({ id: newId(), type: 'folder', tags: { read: [], write: [] } })).status).toBe(404);
    expect((await update({ id, type: 'component', tags: { read: [], write: [] } })).status).toBe(404);
    // The stored badges are untouched by the refused calls.
    expect(find(await tree('schema'), id)?.tags).toEqual({ read: [], write: [] });
  });
});
