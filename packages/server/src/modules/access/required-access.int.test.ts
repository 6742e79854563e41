import type { DocumentTagTarget } from '@gdb/shared/tags/document-tags.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPipeline, superAdmin } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { actingAs } from '../../../test/version-chain.ts';
import type { AuthContext } from '../../platform/auth/access-control.ts';

// Each service that reads or writes documents, called as the routes call it, by a manager without
// the badge that closes a document: refused on read and on write, whatever the route in front.
let t: TestApp;
let outsider: AuthContext;
let secret: string;
const boss = superAdmin();
const refused = { status: 403 };

beforeAll(async () => {
  t = await createTestApp();
  secret = (await t.services.tags.save({ name: 'Closed', type: 'project' }))._id;
  outsider = actingAs(await t.createUser(['manager']));
});
afterAll(() => t.close());

/** Closes a document (or folder) of `type` to reading and writing without the badge. */
const close = (type: DocumentTagTarget, id: string) =>
  t.services.folders.setBadges(boss, type, id, { tags: { read: [[secret]], write: [[secret]] }, metadataTags: [] });

describe('a service called by a caller without the badge', () => {
  it('data models: refuses reading and saving', async () => {
    const doc = await t.services.schemas.save(boss, { name: 'Closed model', jsonSchema: { type: 'object' } });
    await close('schema', doc._id);
    await expect(t.services.schemas.find(doc._id, outsider)).rejects.toMatchObject(refused);
    await expect(t.services.schemas.byName(doc.name, outsider)).rejects.toMatchObject(refused);
    expect(await t.services.schemas.many([doc._id], outsider)).toEqual([]);
    const body = { _id: doc._id, name: doc.name, version: 1, sys_version: doc.sys_version, jsonSchema: { type: 'string' } };
    await expect(t.services.schemas.save(outsider, body)).rejects.toMatchObject(refused);
    await expect(t.services.schemas.remove(outsider, doc._id)).rejects.toMatchObject(refused);
  });

  it('components: refuses reading and saving', async () => {
    const doc = await t.services.components.save(boss, { name: 'Closed component', jsCode: 'ctx.output = {};' });
    await close('component', doc._id);
    await expect(t.services.components.find(doc._id, outsider)).rejects.toMatchObject(refused);
    expect(await t.services.components.many([doc._id], outsider)).toEqual([]);
    expect((await t.services.components.list(outsider)).map((c) => c._id)).not.toContain(doc._id);
    const body = { _id: doc._id, name: doc.name, sys_version: doc.sys_version, jsCode: 'steal()' };
    await expect(t.services.components.save(outsider, body)).rejects.toMatchObject(refused);
    await expect(t.services.components.remove(outsider, doc._id)).rejects.toMatchObject(refused);
  });

  it('SDK functions: refuses reading, running by name and saving', async () => {
    const doc = await t.services.sdk.save(boss, { functionName: 'closedFn' });
    await close('sdk', doc._id);
    await expect(t.services.sdk.find(doc._id, outsider)).rejects.toMatchObject(refused);
    await expect(t.services.sdk.byName('closedFn', outsider)).rejects.toMatchObject(refused);
    expect((await t.services.sdk.list(outsider)).map((f) => f._id)).not.toContain(doc._id);
    const body = { _id: doc._id, functionName: 'closedFn', sys_version: doc.sys_version, jsCode: 'async function () {}' };
    await expect(t.services.sdk.save(outsider, body)).rejects.toMatchObject(refused);
    await expect(t.services.sdk.remove(outsider, doc._id)).rejects.toMatchObject(refused);
  });

  it('pipelines: refuses reading and deleting', async () => {
    const { id } = await buildPipeline(t, { name: 'Closed pipeline' });
    await close('pipeline', id);
    await expect(t.services.pipelines.byId(outsider, id)).rejects.toMatchObject(refused);
    expect((await t.services.pipelines.all(outsider)).map((p) => p._id)).not.toContain(id);
    await expect(t.services.pipelines.remove(outsider, id)).rejects.toMatchObject(refused);
  });

  it('folders: leave a closed folder out of the tree and refuse renaming it', async () => {
    const folder = await t.services.folders.create(boss, { name: 'Closed folder', kind: 'schema' });
    await close('folder', folder.id);
    const [root] = await t.services.folders.tree(outsider, 'schema');
    expect(root?.children.map((c) => c.value)).not.toContain(folder.id);
    await expect(t.services.folders.rename(outsider, { id: folder.id, name: 'Taken' })).rejects.toMatchObject(refused);
  });

  it('versions: refuses the version graph, the update report and a new version', async () => {
    const doc = await t.services.schemas.save(boss, { name: 'Closed versions', jsonSchema: { type: 'object' } });
    await close('schema', doc._id);
    await expect(t.services.versions.versions('schema', doc._id, outsider)).rejects.toMatchObject(refused);
    await expect(t.services.versions.compute('schema', doc._id, outsider)).rejects.toMatchObject(refused);
    await expect(t.services.versions.newVersion('schema', outsider, doc._id)).rejects.toMatchObject(refused);
  });
});
