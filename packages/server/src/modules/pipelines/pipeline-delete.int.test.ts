import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUpload } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';
import type { NewPipeline } from './pipelines.service.ts';

let t: TestApp;
let boss: string;
let manager: string;
let secret: string;

beforeAll(async () => {
  t = await createTestApp();
  boss = (await t.signedIn(['super-admin'])).token;
  manager = (await t.signedIn(['manager'])).token;
  secret = (await t.call('POST', '/tags', { token: boss, body: { name: 'Delete secret', type: 'project' } })).body.data._id;
});
afterAll(async () => {
  await t.close();
});

const pipeline = (fields: Partial<NewPipeline> & { name: string }) =>
  t.services.pipelines.create({ isMaster: false, dataSources: [], dataSinks: [], ...fields });
/** A master with two country pipelines, all drafts unless told. */
async function family(name: string, countryFields: Partial<NewPipeline> = {}) {
  const master = await pipeline({ name, isMaster: true });
  const countries = [
    await pipeline({ name: `${name} FR`, masterPipeline: master, ...countryFields }),
    await pipeline({ name: `${name} DE`, masterPipeline: master }),
  ];
  return { master, countries };
}
const remove = (id: string, token = manager) => t.call('DELETE', `/pipelines?id=${encodeURIComponent(id)}`, { token });
const exists = async (id: string) => (await t.call('GET', `/pipelines/id?id=${id}`, { token: boss })).status === 200;
const badge = (id: string, type: string, write: string[][]) =>
  t.call('POST', '/tags/update-document-tags', { token: boss, body: { id, type, tags: { read: [], write } } });

describe('DELETE /pipelines', () => {
  it("deletes a draft master with every country pipeline whose master it is, and answers 'Pipeline deleted'", async () => {
    const { master, countries } = await family('Going master');
    const other = await pipeline({ name: 'Unrelated country', masterPipeline: await pipeline({ name: 'Kept', isMaster: true }) });
    const upload = await buildUpload(t, countries[0] ?? '');
    const res = await remove(master);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Pipeline deleted');
    expect(res.body.data._id).toBe(master);
    expect([...res.body.data.deleted].sort()).toEqual([master, ...countries].sort());
    for (const id of [master, ...countries]) expect(await exists(id)).toBe(false);
    expect(await exists(other)).toBe(true);
    const uploads = await t.ctx.db.kysely.selectFrom('uploads').select('id').where('id', '=', upload).execute();
    expect(uploads).toEqual([]);
  });

  it('deletes a country pipeline alone', async () => {
    const { master, countries } = await family('Country alone');
    const [fr = '', de = ''] = countries;
    expect((await remove(fr)).body.data.deleted).toEqual([fr]);
    expect([await exists(fr), await exists(de), await exists(master)]).toEqual([false, true, true]);
  });

  it('refuses a locked or read-only version, and a master with a locked country pipeline, deleting nothing', async () => {
    const locked = await pipeline({ name: 'Locked master', isMaster: true, vLocked: true });
    const res = await remove(locked);
    expect([res.status, res.body.message]).toEqual([
      403,
      'Version 1 of this pipeline is locked: create a new version to change it.',
    ]);
    const { master, countries } = await family('Master of a locked country', { vLocked: true });
    expect((await remove(master)).status).toBe(403);
    for (const id of [master, ...countries]) expect(await exists(id)).toBe(true);
    const frozen = await pipeline({ name: 'Read-only', isMaster: true });
    await t.ctx.db.kysely.updateTable('pipelines').set({ read_only: true }).where('id', '=', frozen).execute();
    const refused = await remove(frozen, boss);
    expect([refused.status, refused.body.message]).toEqual([403, 'This pipeline is read-only.']);
  });

  it('needs write through the badges on the pipeline and on each country pipeline, or their folders', async () => {
    const closed = await pipeline({ name: 'Write closed', isMaster: true });
    await badge(closed, 'pipeline', [[secret]]);
    const res = await remove(closed);
    expect([res.status, res.body.message]).toEqual([403, 'You are not allowed to change this document.']);
    expect(await exists(closed)).toBe(true);

    const { master, countries } = await family('Country in a closed folder');
    const folder = (await t.call('POST', '/folders', { token: boss, body: { name: 'Closed countries', kind: 'pipeline' } })).body
      .data.id;
    await t.call('POST', '/pipelines/reparent', { token: boss, body: { id: countries[0], parentId: folder } });
    await badge(folder, 'folder', [[secret]]);
    expect((await remove(master)).status).toBe(403);
    for (const id of [master, ...countries]) expect(await exists(id)).toBe(true);
    // A super-admin passes every badge.
    expect((await remove(master, boss)).status).toBe(200);
  });

  it('is refused to users and admins', async () => {
    const target = await pipeline({ name: 'Role target', isMaster: true });
    for (const role of ['user', 'admin'] as const) {
      const { token } = await t.signedIn([role]);
      const res = await remove(target, token);
      expect([role, res.status, res.body.message]).toEqual([role, 403, 'You are not allowed to do this.']);
    }
    expect(await exists(target)).toBe(true);
  });

  it('answers 404 or 422 to ids that name no pipeline, and deletes nothing', async () => {
    const before = await t.ctx.db.kysely.selectFrom('pipelines').select('id').execute();
    const schema = (await t.call('POST', '/schemas', { token: boss, body: { name: 'Not a pipeline', jsonSchema: {} } })).body
      .data;
    for (const id of [newId(), schema._id, '../../pipelines', "' or 1=1 --", '00000000-0000-0000-0000-000000000000']) {
      expect([id, (await remove(id)).status]).toEqual([id, 404]);
    }
    expect((await remove('x'.repeat(65))).status).toBe(422);
    expect((await t.call('DELETE', '/pipelines', { token: manager })).status).toBe(422);
    const inBody = await t.call('DELETE', '/pipelines', { token: manager, body: { id: before[0]?.id } });
    expect(inBody.status).toBe(422);
    const after = await t.ctx.db.kysely.selectFrom('pipelines').select('id').execute();
    expect(after.length).toBe(before.length);
  });
});
