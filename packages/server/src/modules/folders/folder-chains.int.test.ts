import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until, writeElsewhere } from '../../../test/elsewhere.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// The document access check walks a kind's folders on nearly every read of a document: each
// instance keeps them in memory, forgets them when it changes a folder itself and when the
// database announces a change made by any other instance.

let t: TestApp;
let boss: string;
let outsider: string;
let secret: string;

beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  secret = (await t.call('POST', '/tags', { token: boss, body: { name: 'Kept secret', type: 'project' } })).body.data._id;
  outsider = (await t.signedIn(['manager'])).token;
});
afterAll(async () => {
  await t.close();
});

const elsewhere = (text: string, params?: unknown[]) => writeElsewhere(t.ctx.db, text, params);

const folder = async (name: string) =>
  (await t.call('POST', '/folders', { token: boss, body: { name, kind: 'schema' } })).body.data.id as string;
const schemaIn = async (name: string, folderId: string) =>
  (await t.call('POST', '/schemas', { token: boss, body: { name, folder: folderId, jsonSchema: { type: 'object' } } })).body.data
    ._id as string;
const opened = async (id: string) => (await t.call('GET', `/schemas/find?id=${id}`, { token: outsider })).status;
const tagsOf = async (id: string) => (await t.services.folders.chainsOf('schema')).find((f) => f.id === id)?.tags;

describe("a kind's folders as the access check reads them", () => {
  it('are read once for many checks, and again once this instance changes a folder', async () => {
    const first = await t.services.folders.chainsOf('schema');
    expect(await t.services.folders.chainsOf('schema')).toBe(first);
    const id = await folder('Kept A');
    const after = await t.services.folders.chainsOf('schema');
    expect(after).not.toBe(first);
    expect(after.map((f) => f.id)).toContain(id);
  });

  it('take a badge set through this instance at once: the next read is refused', async () => {
    const id = await folder('Kept B');
    const doc = await schemaIn('Kept model B', id);
    expect(await opened(doc)).toBe(200);
    const set = await t.call('POST', '/tags/update-document-tags', {
      token: boss,
      body: { id, type: 'folder', tags: { read: [[secret]], write: [] } },
    });
    expect(set.status).toBe(200);
    expect(await opened(doc)).toBe(403);
  });

  it("take another instance's change as the database announces it", async () => {
    const id = await folder('Kept C');
    const doc = await schemaIn('Kept model C', id);
    expect(await opened(doc)).toBe(200);
    const kept = await t.services.folders.chainsOf('schema');
    await elsewhere('update folders set tags = $1 where id = $2', [JSON.stringify({ read: [[secret]], write: [] }), id]);
    await until(async () => (await t.services.folders.chainsOf('schema')) !== kept);
    expect(await tagsOf(id)).toEqual({ read: [[secret]], write: [] });
    expect(await opened(doc)).toBe(403);
    await elsewhere('update folders set tags = $1 where id = $2', [JSON.stringify({ read: [], write: [] }), id]);
    await until(async () => (await opened(doc)) === 200);
  });

  it("keep the other kinds' folders when one kind's change is announced", async () => {
    const pipelines = await t.services.folders.chainsOf('pipeline');
    const schemas = await t.services.folders.chainsOf('schema');
    await elsewhere("update folders set updated_at = now() where kind = 'schema' and parent_id is null");
    await until(async () => (await t.services.folders.chainsOf('schema')) !== schemas);
    expect(await t.services.folders.chainsOf('pipeline')).toBe(pipelines);
  });
});
