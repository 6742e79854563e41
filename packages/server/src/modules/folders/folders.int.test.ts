import type { Role } from '@gdb/shared/auth/roles';
import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { type DocumentAccessHook, type DocumentAccessItem, foldersService } from './folders.service.ts';

let t: TestApp;
let boss: string;
let manager: string;
const tokens = new Map<Role, string>();
beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  manager = (await t.signedIn(['manager'])).token;
  tokens.set('super-admin', boss).set('manager', manager);
  tokens.set('admin', (await t.signedIn(['admin'])).token).set('user', (await t.signedIn(['user'])).token);
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, body: unknown, token = manager) => t.call('POST', url, { token, body });
const tree = async (kind: string, token = manager): Promise<TreeNode> => {
  const res = await t.call('GET', `/folders/tree?kind=${kind}`, { token });
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0];
};
const folder = async (name: string, kind: string, parent?: string) =>
  (await post('/folders', { name, kind, ...(parent ? { parent } : {}) })).body.data as { id: string; name: string };
const schema = async (name: string, folderId: string | null = null) =>
  (await post('/schemas', { name, folder: folderId, jsonSchema: { type: 'object' } })).body.data as { _id: string };
const remove = (body: Record<string, unknown>, token = manager) => t.call('DELETE', '/folders', { token, body });
const find = (node: TreeNode, value: string): TreeNode | undefined =>
  node.value === value ? node : node.children.map((c) => find(c, value)).find(Boolean);

describe('folder trees', () => {
  it('answers the root of the kind with folders first, then documents grouped by family with their versions', async () => {
    const root = await tree('schema');
    expect(root).toMatchObject({
      label: 'Data models',
      type: 'folder',
      versions: [],
      tags: { read: [], write: [] },
      metadataTags: [],
    });
    const shelf = await folder('Shelf', 'schema');
    const loose = await schema('Zeta loose');
    const kept = await schema('alpha kept', shelf.id);
    await post('/schemas/version/lock', { id: kept._id });
    const second = (await post('/schemas/version/new', { id: kept._id })).body.data as { _id: string };
    const after = await tree('schema');
    expect(after.children.findIndex((c) => c.value === shelf.id)).toBeLessThan(
      after.children.findIndex((c) => c.value === loose._id),
    );
    const shelfNode = find(after, shelf.id) as TreeNode;
    expect(shelfNode.children).toEqual([
      {
        value: second._id,
        label: 'alpha kept',
        type: 'leaf',
        children: [],
        versions: [
          { _id: kept._id, version: 1, vLocked: true },
          { _id: second._id, version: 2, vLocked: false },
        ],
        tags: { read: [], write: [] },
        metadataTags: [],
        write_access: true,
      },
    ]);
    // Each kind has its own root; the other trees do not show data models.
    const pipelines = await tree('pipeline');
    expect(pipelines.label).toBe('Pipelines');
    expect(find(pipelines, shelf.id)).toBeUndefined();
  });

  it('numbers a name already taken under the same parent, on create, rename and move', async () => {
    const parent = await folder('Dupes', 'component');
    expect((await folder('Same', 'component', parent.id)).name).toBe('Same');
    expect((await folder('Same', 'component', parent.id)).name).toBe('Same (1)');
    const third = await folder('Other', 'component', parent.id);
    const renamed = await post('/folders/rename', { id: third.id, name: 'Same' });
    expect(renamed.body.data.name).toBe('Same (2)');
    expect((await post('/folders/rename', { id: third.id, name: 'Same (2)' })).body.data.name).toBe('Same (2)');
    const elsewhere = await folder('Same', 'component');
    const moved = await post('/folders/reparent', { id: elsewhere.id, parentId: parent.id });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ name: 'Same (3)', parent: parent.id });
    const node = find(await tree('component'), parent.id) as TreeNode;
    expect(node.children.map((c) => c.label)).toEqual(['Same', 'Same (1)', 'Same (2)', 'Same (3)']);
  });

  it('refuses to rename, move or delete a root, for managers and super-admins alike', async () => {
    const root = await tree('pipeline');
    const other = await folder('Target', 'pipeline');
    for (const token of [manager, boss]) {
      const rename = await post('/folders/rename', { id: root.value, name: 'Mine' }, token);
      expect([rename.status, rename.body.message]).toEqual([403, 'A root folder cannot be renamed.']);
      const move = await post('/folders/reparent', { id: root.value, parentId: other.id }, token);
      expect([move.status, move.body.message]).toEqual([403, 'A root folder cannot be moved.']);
      const del = await remove({ id: root.value, kind: 'pipeline', withFolders: true, withDocuments: true }, token);
      expect([del.status, del.body.message]).toEqual([403, 'A root folder cannot be deleted.']);
    }
    expect((await tree('pipeline')).label).toBe('Pipelines');
  });

  it('refuses to move a folder into itself or a folder below it, and into a tree of another kind', async () => {
    const top = await folder('Top', 'schema');
    const mid = await folder('Mid', 'schema', top.id);
    const low = await folder('Low', 'schema', mid.id);
    for (const parentId of [top.id, mid.id, low.id]) {
      const res = await post('/folders/reparent', { id: top.id, parentId });
      expect([res.status, res.body.message]).toEqual([400, 'A folder cannot be moved into itself or one of its folders.']);
    }
    const foreign = await folder('Foreign', 'pipeline');
    const res = await post('/folders/reparent', { id: low.id, parentId: foreign.id });
    expect([res.status, res.body.message]).toEqual([400, 'The destination folder holds another kind of document.']);
    const up = await post('/folders/reparent', { id: low.id, parentId: top.id });
    expect(up.body.data.parent).toBe(top.id);
  });

  it('deletes a folder only with the flags for what it holds; with them, its folders and documents go too', async () => {
    const box = await folder('Box', 'schema');
    const inner = await folder('Inner', 'schema', box.id);
    const doc = await schema('Boxed model', inner.id);
    const flags = { id: box.id, kind: 'schema' };
    const noFolders = await remove({ ...flags, withFolders: false, withDocuments: true });
    expect([noFolders.status, noFolders.body.message]).toEqual([409, 'This folder holds folders.']);
    const noDocs = await remove({ ...flags, withFolders: true, withDocuments: false });
    expect([noDocs.status, noDocs.body.message]).toEqual([409, 'This folder holds documents.']);
    expect(find(await tree('schema'), doc._id)).toBeDefined();
    const gone = await remove({ ...flags, withFolders: true, withDocuments: true });
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ folders: [box.id, inner.id], documents: 1 });
    const after = await tree('schema');
    expect([find(after, box.id), find(after, inner.id), find(after, doc._id)]).toEqual([undefined, undefined, undefined]);
    expect((await t.call('GET', `/schemas/find?id=${doc._id}`, { token: manager })).status).toBe(404);
    const empty = await folder('Empty', 'schema');
    const plain = await remove({ id: empty.id, kind: 'schema' });
    expect(plain.body.data).toEqual({ folders: [empty.id], documents: 0 });
  });

  it('keeps the folder and its documents when one of them is locked', async () => {
    const box = await folder('Locked box', 'schema');
    const doc = await schema('Locked model', box.id);
    await post('/schemas/version/lock', { id: doc._id });
    const res = await remove({ id: box.id, kind: 'schema', withFolders: true, withDocuments: true });
    expect(res.status).toBe(403);
    expect(find(await tree('schema'), box.id)).toBeDefined();
  });

  it('moves a document, every version of it, into a folder of its kind', async () => {
    const doc = await schema('Mover');
    const second = (await post('/schemas/version/new', { id: doc._id })).body.data as { _id: string };
    const dest = await folder('Dest', 'schema');
    const moved = await post('/schemas/reparent', { id: doc._id, parentId: dest.id });
    expect([moved.status, moved.body.data]).toEqual([200, { _id: doc._id, folder: dest.id }]);
    const node = find(await tree('schema'), dest.id) as TreeNode;
    expect(node.children.map((c) => [c.value, c.versions.length])).toEqual([[second._id, 2]]);
    const foreign = await folder('Pipes', 'pipeline');
    const wrong = await post('/schemas/reparent', { id: doc._id, parentId: foreign.id });
    expect(wrong.status).toBe(400);
    const missing = await post('/schemas/reparent', { id: dest.id, parentId: dest.id });
    expect([missing.status, missing.body.message]).toEqual([404, 'Document not found']);
  });

  it('answers 404 for an unknown folder and 422 for an empty name or an unknown kind', async () => {
    const unknown = await post('/folders/rename', { id: '00000000-0000-4000-8000-000000000000', name: 'x' });
    expect([unknown.status, unknown.body.message]).toEqual([404, 'Folder not found']);
    expect((await post('/folders', { name: '   ', kind: 'schema' })).status).toBe(422);
    expect((await t.call('GET', '/folders/tree?kind=uploads', { token: manager })).status).toBe(422);
  });
});

describe('who may use folders', () => {
  const roles: Role[] = ['user', 'admin', 'manager', 'super-admin'];
  const readers: Record<string, Role[]> = {
    pipeline: roles,
    schema: ['manager', 'super-admin'],
    component: ['manager', 'super-admin'],
    sdk: ['super-admin'],
  };

  it('shows each tree, and creates folders in it, for the roles of its screens', async () => {
    for (const [kind, allowed] of Object.entries(readers)) {
      for (const role of roles) {
        const token = tokens.get(role) as string;
        const read = await t.call('GET', `/folders/tree?kind=${kind}`, { token });
        const made = await post('/folders', { name: `${role} made`, kind }, token);
        const expected = allowed.includes(role) ? 200 : 403;
        expect([kind, role, read.status, made.status]).toEqual([kind, role, expected, expected]);
      }
    }
  });

  it('leaves renaming, moving and deleting folders and moving documents to managers and super-admins', async () => {
    const a = await folder('Role a', 'pipeline');
    const b = await folder('Role b', 'pipeline');
    const doc = await schema('Role model');
    const dest = await folder('Role dest', 'schema');
    for (const role of ['user', 'admin'] as Role[]) {
      const token = tokens.get(role) as string;
      const calls = [
        await post('/folders/rename', { id: a.id, name: 'x' }, token),
        await post('/folders/reparent', { id: a.id, parentId: b.id }, token),
        await remove({ id: a.id, kind: 'pipeline' }, token),
        await post('/schemas/reparent', { id: doc._id, parentId: dest.id }, token),
      ];
      expect(calls.map((c) => c.status)).toEqual([403, 403, 403, 403]);
    }
    const sdkRoot = await tree('sdk', boss);
    const sdkMove = await post('/sdk/reparent', { id: doc._id, parentId: sdkRoot.value }, manager);
    expect(sdkMove.status).toBe(403);
    expect((await post('/folders/reparent', { id: a.id, parentId: b.id }, boss)).status).toBe(200);
    expect((await remove({ id: b.id, kind: 'pipeline', withFolders: true }, boss)).status).toBe(200);
  });

  it('refuses a caller who is not signed in', async () => {
    expect((await t.call('GET', '/folders/tree?kind=pipeline')).status).toBe(401);
    expect((await t.call('POST', '/folders', { body: { name: 'x', kind: 'pipeline' } })).status).toBe(401);
  });
});

describe('the document access hook', () => {
  const auth = { userId: '', sessionId: 's', userName: 'm', roles: ['manager'] };
  beforeAll(async () => {
    // The version engine behind the service still checks the badges of a real user.
    auth.userId = (await t.createUser(['manager'])).id;
  });
  const deny = { read: new Set<string>(), write: new Set<string>() };
  const seen: DocumentAccessItem[] = [];
  const hook: DocumentAccessHook = async () => (action, item) => {
    seen.push(item);
    return !deny[action].has(item.id);
  };
  const service = () => foldersService(t.ctx, t.services.versions, { documentAccess: hook });

  it('is shown each item with the folders above it, and the tree leaves out what it may not read', async () => {
    const outer = await folder('Hook outer', 'component');
    const inner = await folder('Hook inner', 'component', outer.id);
    const doc = await schema('Hook model');
    const root = await tree('schema');
    const schemaInner = await folder('Hook schema inner', 'schema');
    await post('/schemas/reparent', { id: doc._id, parentId: schemaInner.id });
    await service().tree(auth, 'schema');
    const docItem = seen.find((i) => i.id === doc._id);
    expect(docItem?.above.map((f) => f.id)).toEqual([schemaInner.id, root.value]);
    expect(docItem).toMatchObject({ kind: 'schema', type: 'leaf', tags: { read: [], write: [] } });
    deny.read.add(outer.id);
    const hidden = (await service().tree(auth, 'component'))[0] as TreeNode;
    expect([find(hidden, outer.id), find(hidden, inner.id)]).toEqual([undefined, undefined]);
    deny.read.clear();
    deny.read.add(doc._id);
    expect(find((await service().tree(auth, 'schema'))[0] as TreeNode, doc._id)).toBeUndefined();
    deny.read.clear();
  });

  it('refuses every change where it refuses write', async () => {
    const dest = await folder('Hook dest', 'schema');
    const free = await folder('Hook free', 'schema');
    const doc = await schema('Hook mover');
    deny.write.add(dest.id);
    const refused = 'You are not allowed to change this folder.';
    await expect(service().create(auth, { name: 'x', kind: 'schema', parent: dest.id })).rejects.toThrow(refused);
    await expect(service().rename(auth, { id: dest.id, name: 'y' })).rejects.toThrow(refused);
    await expect(service().reparent(auth, { id: free.id, parentId: dest.id })).rejects.toThrow(refused);
    await expect(service().remove(auth, { id: dest.id, kind: 'schema', withFolders: true, withDocuments: true })).rejects.toThrow(
      refused,
    );
    await expect(service().moveDocument(auth, 'schema', { id: doc._id, parentId: dest.id })).rejects.toThrow(refused);
    deny.write.clear();
    deny.write.add(doc._id);
    await expect(service().moveDocument(auth, 'schema', { id: doc._id, parentId: free.id })).rejects.toThrow(refused);
    deny.write.clear();
    expect(await service().moveDocument(auth, 'schema', { id: doc._id, parentId: free.id })).toEqual({
      _id: doc._id,
      folder: free.id,
    });
  });
});

describe('the other kinds of documents', () => {
  it('lists and moves components, SDK functions and pipelines in their own trees', async () => {
    const component = (await post('/components', { name: 'Tree component' })).body.data as { _id: string };
    const sdkFn = (await post('/sdk', { functionName: 'treeFunction' }, boss)).body.data as { _id: string };
    const pipelineId = await t.services.pipelines.create({
      name: 'Tree pipeline',
      isMaster: true,
      dataSources: [],
      dataSinks: [],
    });
    const cases = [
      ['component', '/components/reparent', component._id, 'Tree component'],
      ['sdk', '/sdk/reparent', sdkFn._id, 'treeFunction'],
      ['pipeline', '/pipelines/reparent', pipelineId, 'Tree pipeline'],
    ] as const;
    for (const [kind, path, id, label] of cases) {
      expect(find(await tree(kind, boss), id)).toMatchObject({ label, type: 'leaf', versions: [{ _id: id, version: 1 }] });
      const dest = (await post('/folders', { name: `${kind} dest`, kind }, boss)).body.data as { id: string };
      expect((await post(path, { id, parentId: dest.id }, boss)).status).toBe(200);
      expect(find(find(await tree(kind, boss), dest.id) as TreeNode, id)?.label).toBe(label);
    }
    const pipes = (await tree('pipeline', boss)).children.find((c) => c.label === 'pipeline dest') as TreeNode;
    const refused = await remove({ id: pipes.value, kind: 'pipeline', withFolders: true, withDocuments: true }, boss);
    expect([refused.status, refused.body.message]).toEqual([409, 'This folder holds pipelines; delete them first.']);
    expect((await t.services.pipelines.stored(pipelineId))?.name).toBe('Tree pipeline');
  });
});
