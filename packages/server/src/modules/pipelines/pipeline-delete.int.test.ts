import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImport, buildUpload } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';
import { PIPELINE_BUSY_MESSAGE } from '../imports/pipeline-removal.ts';
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

const db = () => t.ctx.db.kysely;
/** A job of a pipeline, active unless told, due in an hour. */
async function job(
  pipelineId: string,
  fields: { kind?: 'repeat' | 'scheduled' | 'sequential'; state?: string; list?: string[] } = {},
) {
  const id = newId();
  await db()
    .insertInto('jobs')
    .values({
      id,
      pipeline_id: pipelineId,
      job_kind: fields.kind ?? 'repeat',
      repeat_pattern: '0 * * * *',
      next_run_at: new Date(Date.now() + 3_600_000),
      state: fields.state ?? 'active',
      list_pipelines: fields.list ?? [],
    })
    .execute();
  return id;
}
const setImport = (id: string, state: 'busy' | 'sequential' | 'done') =>
  db().updateTable('imports').set({ state }).where('id', '=', id).execute();
const rowsOf = async (table: 'jobs' | 'imports', ids: string[]) =>
  (await db().selectFrom(table).select(['id', 'pipeline_id']).where('id', 'in', ids).execute()).map((r) => r.id).sort();

describe('DELETE /pipelines and the imports and jobs of what it deletes', () => {
  it('is refused (409) while an import of the pipeline, or of a country going with its master, runs or waits to run', async () => {
    const { master, countries } = await family('Busy family');
    const [fr = '', de = ''] = countries;
    const running = await buildImport(t, fr);
    await setImport(running, 'busy');
    const refused = await remove(master);
    expect([refused.status, refused.body.message]).toEqual([409, PIPELINE_BUSY_MESSAGE]);
    await setImport(running, 'done');
    // Waiting to run now (no later time): refused as well.
    const waiting = await buildImport(t, de);
    expect((await remove(master)).status).toBe(409);
    expect((await remove(de)).status).toBe(409);
    await setImport(waiting, 'done');
    // A master's sequential import running through a list that names the country.
    const sequence = await job(master, { kind: 'sequential', list: [fr] });
    const run = newId();
    await db().insertInto('imports').values({ id: run, pipeline_id: master, job_id: sequence, state: 'sequential' }).execute();
    expect((await remove(fr)).status).toBe(409);
    for (const id of [master, ...countries]) expect(await exists(id)).toBe(true);
    await setImport(run, 'done');
    expect((await remove(master)).status).toBe(200);
  });

  it('takes its active jobs and the imports waiting for a later run with it; finished ones stay, naming no pipeline', async () => {
    const { master, countries } = await family('Scheduled family');
    const [fr = ''] = countries;
    const repeat = await job(fr);
    const later = newId();
    const at = new Date(Date.now() + 3_600_000);
    await db().insertInto('imports').values({ id: later, pipeline_id: fr, job_id: repeat, scheduled_at: at }).execute();
    const scheduled = await job(master, { kind: 'scheduled' });
    const finishedJob = await job(fr, { kind: 'scheduled', state: 'done' });
    const finished = await buildImport(t, fr);
    await setImport(finished, 'done');
    expect((await remove(master)).status).toBe(200);
    expect(await rowsOf('jobs', [repeat, scheduled, finishedJob])).toEqual([finishedJob]);
    expect(await rowsOf('imports', [later, finished])).toEqual([finished]);
    const kept = await db().selectFrom('imports').select('pipeline_id').where('id', '=', finished).executeTakeFirst();
    expect(kept?.pipeline_id).toBeNull();
    // Nothing is due for the deleted pipelines when the hour comes.
    const due = await db()
      .selectFrom('jobs')
      .select('id')
      .where('state', '=', 'active')
      .where('pipeline_id', 'is', null)
      .execute();
    expect(due).toEqual([]);
  });

  it("leaves its uploads' stored files to the file sweep", async () => {
    const { master, countries } = await family('Family with files');
    const key = await t.services.files.put(Buffer.from('a,b\n1,2\n'));
    const upload = await buildUpload(t, countries[0] ?? '');
    await db().updateTable('uploads').set({ file_key: key }).where('id', '=', upload).execute();
    expect((await remove(master)).status).toBe(200);
    await t.services.uploads.sweepFiles(new Date(Date.now() + t.ctx.config.fileSweepGraceMs + 60_000));
    await expect(t.services.files.get(key)).rejects.toThrow();
  });

  it('deletes the master and its countries in one transaction: a country locked meanwhile leaves the whole family', async () => {
    const { master, countries } = await family('Racing family');
    const repeat = await job(master);
    // The first country deleted locks its sibling, as a lock arriving between the checks and the delete would.
    await sql`create or replace function test_lock_sibling() returns trigger language plpgsql as $$
      begin update pipelines set v_locked = true where master_pipeline = old.master_pipeline and id <> old.id; return old; end $$`.execute(
      db(),
    );
    await sql`create trigger test_lock_sibling before delete on pipelines for each row
      when (old.master_pipeline = ${sql.lit(master)}::uuid) execute function test_lock_sibling()`.execute(db());
    try {
      const res = await remove(master);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/^Version 1 of Racing family (FR|DE) was locked or deleted meanwhile\.$/);
    } finally {
      await sql`drop trigger test_lock_sibling on pipelines`.execute(db());
    }
    for (const id of [master, ...countries]) expect(await exists(id)).toBe(true);
    expect(await rowsOf('jobs', [repeat])).toEqual([repeat]);
  });
});
