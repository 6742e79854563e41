import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeElsewhere } from '../../../test/elsewhere.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';
import { accessHooks, allowEverything } from '../access/access.service.ts';
import { foldersRepo } from './folders.repo.ts';
import { foldersService } from './folders.service.ts';

let t: TestApp;
let boss: string;
let manager: { id: string; token: string };
let secret: string;
let root: string;

beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  secret = (await t.call('POST', '/tags', { token: boss, body: { name: 'Cache secret', type: 'project' } })).body.data._id;
  const { user, token } = await t.signedIn(['manager']);
  manager = { id: user.id, token };
  root = (await tree()).value;
});
afterAll(async () => {
  await t.close();
});

const elsewhere = (text: string, params?: unknown[]) => writeElsewhere(t.ctx.db, text, params);

const tree = async (token = manager.token): Promise<TreeNode> => {
  const res = await t.call('GET', '/folders/tree?kind=schema', { token });
  expect(res.status).toBe(200);
  return res.body.data[0];
};
const find = (node: TreeNode, value: string): TreeNode | undefined =>
  node.value === value ? node : node.children.map((c) => find(c, value)).find(Boolean);
const parentOf = (node: TreeNode, value: string): string | undefined =>
  node.children.some((c) => c.value === value) ? node.value : node.children.map((c) => parentOf(c, value)).find(Boolean);
const folder = async (name: string) =>
  (await t.call('POST', '/folders', { token: boss, body: { name, kind: 'schema' } })).body.data.id as string;
const schema = async (name: string) =>
  (await t.call('POST', '/schemas', { token: boss, body: { name, folder: null, jsonSchema: { type: 'object' } } })).body.data
    ._id as string;
const secretBadges = () => JSON.stringify({ read: [[secret]], write: [] });
const open = JSON.stringify({ read: [], write: [] });

describe('the stamps a kept tree is checked against', () => {
  it('change with every insert, update and delete of the kind once committed, and not otherwise', async () => {
    const repo = foldersRepo(t.ctx.db.kysely);
    const stamps = async () => [await repo.stamp('schema'), await t.services.versions.documentsStamp('schema')];
    const changes: boolean[][] = [];
    const after = async (write: () => Promise<void>) => {
      const before = await stamps();
      await write();
      const now = await stamps();
      changes.push([now[0] !== before[0], now[1] !== before[1]]);
    };
    const [folderId, docId] = [newId(), newId()];
    await after(async () => {});
    await after(() =>
      elsewhere(`insert into folders (id, kind, parent_id, name) values ($1, 'schema', $2, 'Stamped')`, [folderId, root]),
    );
    await after(() => elsewhere(`update folders set name = 'Stamped again' where id = $1`, [folderId]));
    await after(() =>
      elsewhere(
        `insert into schemas (id, family_id, version, folder_id, name, json_schema) values ($1, $1, 1, $2, 'Stamped model', '{}')`,
        [docId, folderId],
      ),
    );
    await after(() => elsewhere(`update schemas set tags = $2 where id = $1`, [docId, secretBadges()]));
    await after(() =>
      elsewhere(
        `insert into folders (id, kind, parent_id, name)
          select $1, 'component', id, 'Other kind' from folders where kind = 'component' and parent_id is null`,
        [newId()],
      ),
    );
    await after(() => elsewhere(`delete from schemas where id = $1`, [docId]));
    await after(() => elsewhere(`delete from folders where id = $1`, [folderId]));
    expect(changes).toEqual([
      [false, false],
      [true, false],
      [true, false],
      [false, true],
      [false, true],
      [false, false],
      [false, true],
      [true, false],
    ]);
  });
});

describe('a tree kept between calls', () => {
  it('shows at once what another instance changed: documents added, renamed, moved, badged or deleted, folders added, badged or deleted', async () => {
    const shelf = await folder('Cache shelf');
    const doc = await schema('Cache model');
    // A second service stands for another instance with a cache of its own.
    const other = foldersService(t.ctx, t.services.versions, {
      documentAccess: accessHooks(async () => allowEverything).explorerCheck,
    });
    const auth = { userId: manager.id, sessionId: 's', userName: 'm', roles: ['manager'] };
    const both = async () => [await tree(), (await other.tree(auth, 'schema'))[0] as TreeNode];
    for (const node of await both()) expect(parentOf(node, doc)).toBe(root);

    await elsewhere(`update schemas set name = 'Cache renamed' where family_id = $1`, [doc]);
    for (const node of await both()) expect(find(node, doc)?.label).toBe('Cache renamed');
    await elsewhere(`update schemas set folder_id = $2 where family_id = $1`, [doc, shelf]);
    for (const node of await both()) expect(parentOf(node, doc)).toBe(shelf);
    const second = newId();
    await elsewhere(
      `insert into schemas (id, family_id, version, folder_id, name, json_schema) values ($1, $2, 2, $3, 'Cache renamed', '{}')`,
      [second, doc, shelf],
    );
    expect(find(await tree(), second)?.versions.map((v) => v.version)).toEqual([1, 2]);

    await elsewhere(`update folders set tags = $2 where id = $1`, [shelf, secretBadges()]);
    expect([find(await tree(), shelf), find(await tree(), second)]).toEqual([undefined, undefined]);
    expect(find(await tree(boss), second)?.label).toBe('Cache renamed');
    await elsewhere(`update folders set tags = $2 where id = $1`, [shelf, open]);
    expect(find(await tree(), second)?.label).toBe('Cache renamed');
    await elsewhere(`update schemas set tags = $2 where family_id = $1`, [doc, secretBadges()]);
    expect([find(await tree(), shelf)?.label, find(await tree(), second)]).toEqual(['Cache shelf', undefined]);

    const added = newId();
    await elsewhere(`insert into folders (id, kind, parent_id, name) values ($1, 'schema', $2, 'Cache added')`, [added, shelf]);
    expect(parentOf(await tree(), added)).toBe(shelf);
    await elsewhere(`delete from schemas where family_id = $1`, [doc]);
    expect(find(await tree(boss), second)).toBeUndefined();
    await elsewhere(`delete from folders where id in ($1, $2)`, [added, shelf]);
    for (const node of await both()) expect(find(node, shelf)).toBeUndefined();
  });

  it("follows the caller's badges, which are not kept with it", async () => {
    const doc = await schema('Cache badged model');
    await t.call('POST', '/tags/update-document-tags', {
      token: boss,
      body: { id: doc, type: 'schema', tags: { read: [[secret]], write: [] } },
    });
    expect(find(await tree(), doc)).toBeUndefined();
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ project_tags: [secret] })
      .where('id', '=', manager.id)
      .execute();
    // Written past the users service: the instance's session cache would keep the old badges.
    t.services.auth.sessions.forgetUser(manager.id);
    expect(find(await tree(), doc)?.label).toBe('Cache badged model');
    await t.ctx.db.kysely.updateTable('users').set({ project_tags: [] }).where('id', '=', manager.id).execute();
    t.services.auth.sessions.forgetUser(manager.id);
    expect(find(await tree(), doc)).toBeUndefined();
  });
});
