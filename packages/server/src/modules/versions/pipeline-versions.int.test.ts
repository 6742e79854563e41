import type { Role } from '@gdb/shared/auth/roles';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceValues } from '../../../test/factories.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { actingAs } from '../../../test/version-chain.ts';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
let manager: string;
let me: AuthContext;
let ref: Awaited<ReturnType<typeof referenceValues>>;
beforeAll(async () => {
  t = await createTestApp();
  const signed = await t.signedIn(['manager']);
  manager = signed.token;
  me = actingAs(signed.user);
  ref = await referenceValues(t);
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, body: unknown, token = manager) => t.call('POST', url, { token, body });
const get = (url: string, token = manager) => t.call('GET', url, { token });
let families = 0;

/**
 * A data model, a component using it, a master pipeline running the component with a source of
 * that data model, and two country pipelines of the master (the master's component and source):
 * every version a draft, every pipeline able to run.
 */
async function masterFamily() {
  families += 1;
  const schema = await t.services.schemas.create({
    name: `Prices ${families}`,
    jsonSchema: { type: 'object', properties: { sku: { type: 'string' } } },
    userId: me.userId,
  });
  const component = await t.services.components.save(me, {
    name: `Pass ${families}`,
    kind: 'instruction',
    inputs: [{ name: 'rows', inputSchema: schema._id }],
    outputs: [{ name: 'out', outputSchema: schema._id }],
    jsCode: 'ctx.output.out = ctx.input.rows;',
  });
  const source = { dataSubKind: 'rows', connectorType: 'manual' as const, dataFromMaster: false, contentType: 'csv' as const };
  const common = {
    component: component._id,
    dataSources: [{ ...source, dataModel: schema._id }],
    dataSinks: [{ name: 'out', format: 'CSV' as const, target: null }],
    brand: ref.brand,
    locale: ref.locale,
    productLine: ref.productLine,
    datakind: ref.datakind,
  };
  const master = await t.services.pipelines.create({ name: `Master ${families}`, isMaster: true, ...common });
  const france = await t.services.pipelines.create({
    name: `France ${families}`,
    isMaster: false,
    masterPipeline: master,
    ...common,
  });
  const spain = await t.services.pipelines.create({
    name: `Spain ${families}`,
    isMaster: false,
    masterPipeline: master,
    ...common,
  });
  return { schema, component, master, france, spain };
}

/** A repeat job on one pipeline, a scheduled one on another, through the imports call. */
async function jobsOn(repeatOn: string, scheduledOn: string) {
  const repeat = await post('/imports', { pipelineId: repeatOn, kind: 'repeat', repeatPattern: 'H 2' });
  expect(repeat.status, repeat.body.message).toBe(200);
  const later = await post('/imports', {
    pipelineId: scheduledOn,
    kind: 'scheduled',
    scheduledDate: '2099-06-01',
    scheduledTime: '12:00',
  });
  expect(later.status, later.body.message).toBe(200);
  return { repeat: repeat.body.data, later: later.body.data };
}

describe('locking pipelines', () => {
  it('refuses drafts below without force, names the master of a country, and locks the countries with country', async () => {
    const { schema, component, master, france, spain } = await masterFamily();
    const refused = await post('/pipelines/version/lock', { id: master });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `It depends on drafts; lock them first or lock with force: ${schema.name} (v.1 - Draft), ${component.name} (v.1 - Draft)`,
    );
    const country = await post('/pipelines/version/lock', { id: france });
    expect(country.status).toBe(409);
    expect(country.body.message).toContain(`Master ${families} (v.1 - Draft)`);

    const locked = await post('/pipelines/version/lock', { id: master, force: true, country: true });
    expect(locked.status, locked.body.message).toBe(200);
    expect(locked.body.data.locked.map((d: { _id: string; vLocked: boolean }) => [d._id, d.vLocked])).toEqual([
      [schema._id, true],
      [component._id, true],
      [master, true],
      [france, true],
      [spain, true],
    ]);
    const graph = await get(`/pipelines/version?id=${spain}`);
    expect(graph.body.data).toEqual([
      expect.objectContaining({ _id: spain, version: 1, vLocked: true, isMaster: false, vParents: [] }),
    ]);
    expect((await get(`/pipelines/version?id=${master}`)).body.data[0]).toMatchObject({ isMaster: true, vLocked: true });
  });

  it('locks a master alone without country, and a country once its master is locked', async () => {
    const { master, france, spain } = await masterFamily();
    await post('/pipelines/version/lock', { id: master, force: true });
    expect((await t.services.pipelines.stored(france))?.vLocked).toBe(false);
    const alone = await post('/pipelines/version/lock', { id: france });
    expect(alone.body.data.locked.map((d: { _id: string }) => d._id)).toEqual([france]);
    expect((await t.services.pipelines.stored(spain))?.vLocked).toBe(false);
  });
});

describe('the update report and the update of a master', () => {
  it('reports master → country → component → data model, with the jobs, then updates the countries and moves the jobs', async () => {
    const { schema, component, master, france, spain } = await masterFamily();
    await post('/pipelines/version/lock', { id: master, force: true, country: true });
    const jobs = await jobsOn(master, france);
    const s2 = (await post('/schemas/version/new', { id: schema._id })).body.data._id as string;

    const res = await get(`/pipelines/version/compute?id=${master}`);
    expect(res.status, res.body.message).toBe(200);
    const report = res.body.data;
    expect(report).toMatchObject({ _id: master, isMaster: true, needUpdate: true, updateCountries: true, updateJobs: true });
    expect(report.data.schemas).toEqual([
      {
        doc: expect.objectContaining({ _id: schema._id, version: 1 }),
        needUpdate: true,
        toUpdate: expect.objectContaining({ _id: s2, version: 2, vLocked: false }),
        newVersionNumber: 2,
        newDocIsLocked: false,
      },
    ]);
    expect(report.data.components).toMatchObject([{ doc: { _id: component._id }, needUpdate: false }]);
    expect(report.data.pipelines).toMatchObject([
      { doc: { _id: france, version: 1 }, needUpdate: true, newVersionNumber: 2 },
      { doc: { _id: spain, version: 1 }, needUpdate: true, newVersionNumber: 2 },
    ]);
    expect(report.repeatJobs.map((j: { _id: string }) => j._id)).toEqual([jobs.repeat.jobId]);
    expect(report.repeatJobs[0].pipeline).toMatchObject({ _id: master, version: 1 });
    expect(report.scheduledJobs.map((j: { _id: string }) => j._id)).toEqual([jobs.later.jobId]);
    // A country's own report names its master and the master's dependencies.
    const countryReport = (await get(`/pipelines/version/compute?id=${spain}`)).body.data;
    expect(countryReport.isMaster).toBe(false);
    expect(countryReport.data.pipelines).toMatchObject([{ doc: { _id: master }, needUpdate: false }]);
    expect(countryReport.data.schemas).toMatchObject([{ doc: { _id: schema._id }, toUpdate: { _id: s2 } }]);

    const applied = await post('/pipelines/version/update', {
      update_data: { id: master, schemasToUpdate: [schema._id], updateCountries: true, updateJobs: true },
    });
    expect(applied.status, applied.body.message).toBe(200);
    const { success, jobs: moved, errors } = applied.body.data;
    expect(errors).toEqual([]);
    expect(
      success.map((s: { name: string; old_version: number; new_version: number }) => [s.name, s.old_version, s.new_version]),
    ).toEqual([
      [component.name, 1, 2],
      [`Master ${families}`, 1, 2],
      [`France ${families}`, 1, 2],
      [`Spain ${families}`, 1, 2],
    ]);
    const [k2, m2, f2, e2] = success.map((s: { newId: string }) => s.newId);
    for (const id of [f2, e2]) {
      const country = await t.services.pipelines.stored(id);
      expect(country).toMatchObject({ masterPipeline: m2, component: k2, vLocked: false, version: 2 });
      expect(country?.dataSources[0]?.dataModel).toBe(s2);
    }
    expect((await t.services.pipelines.stored(m2))?.dataSources[0]?.dataModel).toBe(s2);
    expect(moved).toEqual(
      expect.arrayContaining([
        { _id: jobs.repeat.jobId, fromId: master, fromName: `Master ${families}`, fromVersion: 1, toId: m2, toVersion: 2 },
        { _id: jobs.later.jobId, fromId: france, fromName: `France ${families}`, fromVersion: 1, toId: f2, toVersion: 2 },
      ]),
    );
    expect(moved).toHaveLength(2);
    // The jobs and their waiting imports now run the new versions; the old ones keep none.
    const after = await t.services.imports.schedulesOf([master, france, m2, f2]);
    expect(after.repeatable.map((j) => j.pipeline?._id)).toEqual([m2]);
    expect(after.scheduled.map((j) => j.pipeline?._id)).toEqual([f2]);
    const waiting = await t.ctx.db.kysely
      .selectFrom('imports')
      .select(['pipeline_id'])
      .where('job_id', 'in', [jobs.repeat.jobId, jobs.later.jobId])
      .where('state', '=', 'pending')
      .execute();
    expect(waiting.map((w) => w.pipeline_id).sort()).toEqual([m2, f2].sort());
    // The versions updated from are untouched.
    expect(await t.services.pipelines.stored(france)).toMatchObject({ masterPipeline: master, component: component._id });
  });

  it('without updateCountries and updateJobs leaves countries and jobs; a country then follows the new master alone', async () => {
    const { schema, master, france, spain } = await masterFamily();
    await post('/pipelines/version/lock', { id: master, force: true, country: true });
    const jobs = await jobsOn(master, france);
    await post('/schemas/version/new', { id: schema._id });
    const applied = await post('/pipelines/version/update', { update_data: { id: master, schemasToUpdate: [schema._id] } });
    expect(applied.body.data.success).toHaveLength(2);
    expect(applied.body.data.jobs).toEqual([]);
    const m2 = applied.body.data.success[1].newId as string;
    expect((await t.services.imports.schedulesOf([master])).repeatable.map((j) => j._id)).toEqual([jobs.repeat.jobId]);

    const report = (await get(`/pipelines/version/compute?id=${spain}`)).body.data;
    expect(report.data.pipelines).toMatchObject([{ doc: { _id: master }, needUpdate: true, toUpdate: { _id: m2, version: 2 } }]);
    const followed = await post('/pipelines/version/update', { update_data: { id: spain, pipelinesToUpdate: [master] } });
    expect(followed.body.data.success).toEqual([
      { name: `Spain ${families}`, old_version: 1, new_version: 2, newId: expect.any(String) },
    ]);
    const spain2 = await t.services.pipelines.stored(followed.body.data.success[0].newId);
    expect(spain2?.masterPipeline).toBe(m2);
    // Only the pipeline asked moved: the master's family got no third version.
    expect((await get(`/pipelines/version?id=${master}`)).body.data).toHaveLength(2);
  });

  it('updates only the countries named, and leaves one the caller may not write with the reason', async () => {
    const { schema, master, france, spain } = await masterFamily();
    await post('/pipelines/version/lock', { id: master, force: true, country: true });
    await t.ctx.db.kysely.updateTable('pipelines').set({ read_only: true }).where('id', '=', spain).execute();
    await post('/schemas/version/new', { id: schema._id });
    const all = await post('/pipelines/version/update', {
      update_data: { id: master, schemasToUpdate: [schema._id], updateCountries: true },
    });
    expect(all.body.data.errors).toEqual([{ name: `Spain ${families}`, version: 1, error: 'This pipeline is read-only.' }]);
    expect(all.body.data.success.map((s: { name: string }) => s.name)).toContain(`France ${families}`);

    const other = await masterFamily();
    await post('/pipelines/version/lock', { id: other.master, force: true, country: true });
    await post('/schemas/version/new', { id: other.schema._id });
    const named = await post('/pipelines/version/update', {
      update_data: {
        id: other.master,
        schemasToUpdate: [other.schema._id],
        updateCountries: true,
        pipelinesToUpdate: [other.spain],
      },
    });
    expect(named.body.data.success.map((s: { name: string }) => s.name)).toEqual([
      other.component.name,
      `Master ${families}`,
      `Spain ${families}`,
    ]);
    expect(france).not.toBe(other.france);
  });
});

describe('new, delete and concurrent saves of pipeline versions', () => {
  it('makes versions and deletes a draft, answering the version to open next', async () => {
    const { master } = await masterFamily();
    const v2 = (await post('/pipelines/version/new', { id: master })).body.data;
    expect(v2).toMatchObject({ kind: 'pipeline', version: 2, vLocked: false });
    const v3 = (await post('/pipelines/version/new', { id: v2._id })).body.data;
    expect((await post('/pipelines/version/delete', { id: v2._id })).body.data).toEqual({
      _id: v2._id,
      version: 2,
      next: v3._id,
    });
    expect((await post('/pipelines/version/delete', { id: v3._id })).body.data.next).toBe(master);
    const inUse = await post('/pipelines/version/delete', { id: master });
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toMatch(/^This pipeline is used by (France|Spain) \d+ \(v\.1 - Draft\)/);
  });

  it('refuses a save made on an older copy (409) when two saves race', async () => {
    const { master } = await masterFamily();
    const results = await Promise.allSettled(
      ['first', 'second'].map((name) => t.services.versions.saveDraft('pipeline', me, master, 1, { name })),
    );
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({
      status: 409,
      message: 'This pipeline was saved by someone else since you opened it; reload it.',
    });
    await expect(t.services.versions.saveDraft('pipeline', me, master, 1, { name: 'late' })).rejects.toMatchObject({
      status: 409,
    });
  });
});

describe('the bulk calls of the update and lock screen', () => {
  it('lists drafts to lock (a country once its master is locked) and pipelines to update (a country once its master is done)', async () => {
    const { schema, master, france, spain } = await masterFamily();
    const lockList = async () => (await get('/pipelines/version/mass-compute?kind=lock')).body.data;
    let list = await lockList();
    expect(list.pipelines.masters.map((e: { doc: { _id: string } }) => e.doc._id)).toContain(master);
    expect(list.pipelines.country.map((e: { doc: { _id: string } }) => e.doc._id)).not.toContain(france);

    const bulk = await post('/pipelines/version/mass-lock', { ids: [master, newId(), schema._id] });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.success).toEqual([]);
    expect(bulk.body.data.errors).toEqual([
      { name: `Master ${families}`, version: 1, error: expect.stringMatching(/^It depends on drafts/) },
      { name: expect.any(String), version: null, error: 'Document not found' },
      { name: schema._id, version: null, error: 'Document not found' },
    ]);
    const forced = await post('/pipelines/version/mass-lock', { ids: [master], force: true });
    expect(forced.body.data).toEqual({ success: [{ name: `Master ${families}`, version: 1 }], errors: [] });
    list = await lockList();
    expect(list.pipelines.country.map((e: { doc: { _id: string } }) => e.doc._id)).toEqual(
      expect.arrayContaining([france, spain]),
    );
    await post('/pipelines/version/mass-lock', { ids: [france, spain] });

    await post('/schemas/version/new', { id: schema._id });
    const updateList = async () => (await get('/pipelines/version/mass-compute?kind=update')).body.data;
    let updates = await updateList();
    const masterEntry = updates.pipelines.masters.find((e: { doc: { _id: string } }) => e.doc._id === master);
    expect(masterEntry.report).toMatchObject({ needUpdate: true, isMaster: true });
    expect(updates.pipelines.country.map((e: { doc: { _id: string } }) => e.doc._id)).not.toContain(france);

    const done = await post('/pipelines/version/mass-update', [
      { id: master, schemasToUpdate: [schema._id] },
      { schemasToUpdate: [] },
      { id: newId() },
    ]);
    expect(done.status, done.body.message).toBe(200);
    expect(done.body.data.success).toHaveLength(2);
    expect(done.body.data.errors).toEqual([
      { name: '', version: null, error: 'Update : Missing _id in document' },
      { name: expect.any(String), version: null, error: 'Document not found' },
    ]);
    updates = await updateList();
    expect(updates.pipelines.masters.map((e: { doc: { _id: string } }) => e.doc._id)).not.toContain(master);
    expect(updates.pipelines.country.map((e: { doc: { _id: string } }) => e.doc._id)).toEqual(
      expect.arrayContaining([france, spain]),
    );
  });
});

describe('pipelines and dependencies whose badges the caller does not hold', () => {
  it('refuses their graph and report, and leaves them out of reports and of the bulk lists', async () => {
    const boss = (await t.signedIn(['super-admin'])).token;
    const secret = (await post('/tags', { name: `Secret ${newId()}`, type: 'project' }, boss)).body.data._id as string;
    const badge = (id: string, type: string) =>
      post('/tags/update-document-tags', { id, type, tags: { read: [[secret]], write: [[secret]] } }, boss);
    const insider = await t.createUser(['manager']);
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ project_tags: [secret] })
      .where('id', '=', insider.id)
      .execute();
    const insiderToken = await t.login(insider.user_name);

    const { schema, master, france } = await masterFamily();
    await post('/schemas/version/new', { id: schema._id });
    expect((await badge(schema._id, 'schema')).status).toBe(200);
    const schemasIn = async (token: string) =>
      (await get(`/pipelines/version/compute?id=${master}`, token)).body.data.data.schemas.map(
        (e: { doc: { _id: string } }) => e.doc._id,
      );
    expect(await schemasIn(insiderToken)).toEqual([schema._id]);
    expect(await schemasIn(manager)).toEqual([]);

    expect((await badge(france, 'pipeline')).status).toBe(200);
    for (const url of [`/pipelines/version?id=${france}`, `/pipelines/version/compute?id=${france}`]) {
      expect([url, (await get(url)).status]).toEqual([url, 403]);
      expect([url, (await get(url, insiderToken)).status]).toEqual([url, 200]);
    }
    const countriesIn = async (token: string) =>
      (await get(`/pipelines/version/compute?id=${master}`, token)).body.data.data.pipelines.map(
        (e: { doc: { _id: string } }) => e.doc._id,
      );
    expect(await countriesIn(insiderToken)).toContain(france);
    expect(await countriesIn(manager)).not.toContain(france);
    const lockList = async (token: string) => {
      const { masters, country } = (await get('/pipelines/version/mass-compute?kind=lock', token)).body.data.pipelines;
      return [...masters, ...country].map((e: { doc: { _id: string } }) => e.doc._id);
    };
    await post('/pipelines/version/lock', { id: master, force: true }, boss);
    expect(await lockList(insiderToken)).toContain(france);
    expect(await lockList(manager)).not.toContain(france);
  });
});

describe('hostile input to the pipeline version calls', () => {
  it('answers Document not found for ids of another kind or of nothing, and the message for a missing id', async () => {
    const { component } = await masterFamily();
    for (const res of [
      await get(`/pipelines/version?id=${component._id}`),
      await get(`/pipelines/version/compute?id=${newId()}`),
      await post('/pipelines/version/lock', { id: component._id, force: true, country: true }),
      await post('/pipelines/version/new', { id: component._id }),
      await post('/pipelines/version/delete', { id: newId() }),
      await post('/pipelines/version/update', { update_data: { id: component._id } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Document not found');
    }
    const noId = await post('/pipelines/version/update', { update_data: { updateCountries: true, updateJobs: true } });
    expect(noId.status).toBe(400);
    expect(noId.body.message).toBe('Update : Missing _id in document');
  });

  it('refuses malformed ids, unknown list kinds and lists over the limit', async () => {
    expect((await get('/pipelines/version/compute?id=not-an-id')).status).toBe(422);
    expect((await get('/pipelines/version/mass-compute?kind=all')).status).toBe(422);
    expect((await post('/pipelines/version/lock', { id: "1' or 1=1 --" })).status).toBe(422);
    const many = Array.from({ length: 501 }, () => newId());
    expect((await post('/pipelines/version/mass-lock', { ids: many })).status).toBe(422);
    expect((await post('/pipelines/version/mass-lock', { ids: [] })).status).toBe(422);
    expect(
      (
        await post(
          '/pipelines/version/mass-update',
          many.map((id) => ({ id })),
        )
      ).status,
    ).toBe(422);
    const longList = { update_data: { id: newId(), schemasToUpdate: Array.from({ length: 1001 }, () => newId()) } };
    expect((await post('/pipelines/version/update', longList)).status).toBe(422);
  });
});

describe('SDK function versions', () => {
  it('lock, new, graph, compute and delete through the engine, for the super-admin only', async () => {
    const boss = (await t.signedIn(['super-admin'])).token;
    const fn = (await post('/sdk', { functionName: `fn${newId().slice(0, 8)}` }, boss)).body.data;
    expect((await post('/sdk/version/lock', { id: fn._id }, boss)).body.data.locked).toMatchObject([
      { _id: fn._id, kind: 'sdk', vLocked: true },
    ]);
    const v2 = (await post('/sdk/version/new', { id: fn._id }, boss)).body.data;
    expect(v2).toMatchObject({ kind: 'sdk', version: 2, vLocked: false, name: fn.functionName });
    expect((await t.services.sdk.find(v2._id, me)).jsCode).toBe(fn.jsCode);
    const graph = (await get(`/sdk/version?id=${v2._id}`, boss)).body.data;
    expect(graph.map((v: { version: number; vParents: string[] }) => [v.version, v.vParents])).toEqual([
      [1, []],
      [2, [fn._id]],
    ]);
    expect((await get(`/sdk/version/compute?id=${v2._id}`, boss)).body.data).toMatchObject({ needUpdate: false });
    const locked = await post('/sdk/version/delete', { id: fn._id }, boss);
    expect(locked.status).toBe(403);
    expect(locked.body.message).toBe('Version 1 of this SDK function is locked: create a new version to change it.');
    expect((await post('/sdk/version/delete', { id: v2._id }, boss)).body.data).toEqual({
      _id: v2._id,
      version: 2,
      next: fn._id,
    });
    expect((await get(`/sdk/version?id=${newId()}`, boss)).body.message).toBe('Document not found');
  });
});

describe('who may call the version calls', () => {
  const calls = (id: string): [string, string, unknown][] => [
    ['GET', `/pipelines/version?id=${id}`, undefined],
    ['POST', '/pipelines/version/lock', { id }],
    ['POST', '/pipelines/version/new', { id }],
    ['POST', '/pipelines/version/delete', { id }],
    ['GET', `/pipelines/version/compute?id=${id}`, undefined],
    ['POST', '/pipelines/version/update', { update_data: { id } }],
    ['GET', '/pipelines/version/mass-compute?kind=lock', undefined],
    ['POST', '/pipelines/version/mass-lock', { ids: [id] }],
    ['POST', '/pipelines/version/mass-update', [{ id }]],
    ['GET', `/sdk/version?id=${id}`, undefined],
    ['POST', '/sdk/version/lock', { id }],
    ['POST', '/sdk/version/new', { id }],
    ['POST', '/sdk/version/delete', { id }],
    ['GET', `/sdk/version/compute?id=${id}`, undefined],
    ['POST', '/sdk/version/update', { update_data: { id } }],
  ];
  const allowed: Record<Role, (url: string) => boolean> = {
    user: () => false,
    admin: () => false,
    manager: (url) => url.startsWith('/pipelines/'),
    'super-admin': () => true,
  };

  it('lets manager and super-admin reach the pipeline calls, the super-admin alone the SDK calls; user and admin get 403', async () => {
    const id = newId();
    for (const role of ['user', 'admin', 'manager', 'super-admin'] as const) {
      const token = (await t.signedIn([role])).token;
      for (const [method, url, body] of calls(id)) {
        const res = await t.call(method as 'GET' | 'POST', url, { token, body });
        if (allowed[role](url)) expect(res.status, `${role} ${method} ${url}`).not.toBe(403);
        else expect(res.status, `${role} ${method} ${url}`).toBe(403);
      }
    }
    for (const [method, url, body] of calls(id)) {
      expect((await t.call(method as 'GET' | 'POST', url, { body })).status, url).toBe(401);
    }
  });
});

describe('each pipeline of an update in its own transaction', () => {
  it('mass-lock refuses a country whose master is a draft, with force too, and locks the others', async () => {
    const { master, france } = await masterFamily();
    const other = await masterFamily();
    await post('/pipelines/version/lock', { id: other.master, force: true });
    const res = await post('/pipelines/version/mass-lock', { ids: [france, other.france], force: true });
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data).toEqual({
      success: [{ name: `France ${families}`, version: 1 }],
      errors: [
        {
          name: `France ${families - 1}`,
          version: 1,
          error: `Its master pipeline Master ${families - 1} (v.1 - Draft) is not locked: lock it first.`,
        },
      ],
    });
    expect((await t.services.pipelines.stored(master))?.vLocked).toBe(false);
    expect((await t.services.pipelines.stored(france))?.vLocked).toBe(false);
  });

  it('mass-update with one pipeline failing leaves the others updated, their jobs moved with updateJobs', async () => {
    const first = await masterFamily();
    const second = await masterFamily();
    const third = await masterFamily();
    for (const f of [first, second, third]) await post('/pipelines/version/lock', { id: f.master, force: true });
    const jobs = await jobsOn(third.master, second.master);
    for (const f of [first, second, third]) await post('/schemas/version/new', { id: f.schema._id });
    await t.ctx.db.kysely.updateTable('pipelines').set({ read_only: true }).where('id', '=', first.master).execute();
    const res = await post(
      '/pipelines/version/mass-update',
      [first, second, third].map((f) => ({ id: f.master, schemasToUpdate: [f.schema._id], updateJobs: true })),
    );
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data.errors).toEqual([{ name: `Master ${families - 2}`, version: 1, error: 'This pipeline is read-only.' }]);
    const masters = res.body.data.success.filter((s: { name: string }) => s.name.startsWith('Master'));
    expect(masters.map((s: { name: string; new_version: number }) => [s.name, s.new_version])).toEqual([
      [`Master ${families - 1}`, 2],
      [`Master ${families}`, 2],
    ]);
    expect(res.body.data.jobs.map((j: { _id: string; fromId: string }) => [j._id, j.fromId]).sort()).toEqual(
      [
        [jobs.repeat.jobId, third.master],
        [jobs.later.jobId, second.master],
      ].sort(),
    );
    expect((await get(`/pipelines/version?id=${first.master}`)).body.data).toHaveLength(1);
  });

  it('leaves the master and the other countries updated when a country fails as it is written', async () => {
    const { schema, master, france, spain } = await masterFamily();
    await post('/pipelines/version/lock', { id: master, force: true, country: true });
    const jobs = await jobsOn(spain, france);
    await post('/schemas/version/new', { id: schema._id });
    const spainFamily = (await t.services.pipelines.stored(spain))?.familyId ?? '';
    // A new version of Spain made by someone else at the same moment: its copy loses the race for the number.
    await sql`create or replace function test_number_taken() returns trigger language plpgsql as $$
      begin raise unique_violation using message = 'duplicate version'; end $$`.execute(t.ctx.db.kysely);
    await sql`create trigger test_number_taken before insert on pipelines for each row
      when (new.family_id = ${sql.lit(spainFamily)}::uuid) execute function test_number_taken()`.execute(t.ctx.db.kysely);
    let res: Awaited<ReturnType<typeof post>>;
    try {
      res = await post('/pipelines/version/update', {
        update_data: { id: master, schemasToUpdate: [schema._id], updateCountries: true, updateJobs: true },
      });
    } finally {
      await sql`drop trigger test_number_taken on pipelines`.execute(t.ctx.db.kysely);
    }
    expect(res.status, res.body.message).toBe(200);
    expect(res.body.data.errors).toEqual([
      {
        name: `Spain ${families}`,
        version: 1,
        error: `A new version of Spain ${families} was made at the same time; try again.`,
      },
    ]);
    expect(res.body.data.success.map((s: { name: string }) => s.name)).toEqual([
      expect.any(String),
      `Master ${families}`,
      `France ${families}`,
    ]);
    // France's job followed; Spain's stayed with the version it was on, which still exists alone.
    expect(res.body.data.jobs.map((j: { _id: string }) => j._id)).toEqual([jobs.later.jobId]);
    expect((await t.services.imports.schedulesOf([spain])).repeatable.map((j) => j._id)).toEqual([jobs.repeat.jobId]);
    expect((await get(`/pipelines/version?id=${spain}`)).body.data).toHaveLength(1);
    expect((await get(`/pipelines/version?id=${master}`)).body.data).toHaveLength(2);
  });
});
