import { IMPORT_MESSAGES } from '@gdb/shared/imports/import-rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvSource, importKit, sink } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

let t: TestApp;
let kit: Awaited<ReturnType<typeof importKit>>;
let user: { token: string; id: string };
let manager: { token: string; id: string };
let admin: { token: string; id: string };
let superAdmin: { token: string; id: string };
let component: string;
let slow: string;

const COPY = 'ctx.output.out = ctx.input.prices;';
// Busy for a while, so that a test can see the import running and stop it.
const SLOW = 'const end = Date.now() + 20000; while (Date.now() < end) {} ctx.output.out = ctx.input.prices;';

async function signed(roles: Parameters<TestApp['signedIn']>[0]) {
  const s = await t.signedIn(roles);
  return { token: s.token, id: s.user.id };
}

/** A runnable pipeline with one valid upload. */
async function ready(name: string, with_ = component): Promise<string> {
  const id = await kit.pipeline({ name, component: with_, sources: [csvSource('prices')], sinks: [sink('out')] });
  await kit.upload(manager.token, id, 'prices', 'code,price\nA,1\n');
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  kit = await importKit(t);
  user = await signed(['user']);
  manager = await signed(['manager']);
  admin = await signed(['admin']);
  superAdmin = await signed(['super-admin']);
  component = await kit.component(COPY, ['prices'], ['out']);
  slow = await kit.component(SLOW, ['prices'], ['out']);
});
afterAll(async () => {
  await t.close();
});

describe('creating imports', () => {
  it('records the import before it is queued: pending, with its job, user and destinations', async () => {
    const pipelineId = await ready('recorded');
    const res = await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } });
    expect(res.status).toBe(200);
    const row = await t.ctx.db.kysely
      .selectFrom('imports')
      .selectAll()
      .where('id', '=', res.body.data.importId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'pending', job_id: res.body.data.jobId, user_id: manager.id, destinations: ['out'] });
    const queued = await t.ctx.db.query(
      `select count(*)::int as n from pgboss.job where name = 'import-run' and data->>'importId' = $1`,
      [row.id],
    );
    expect(queued.rows[0]?.n).toBe(1);
  });

  it('lets exactly one of 20 simultaneous imports of a pipeline in, and answers the others 409 at once', async () => {
    const pipelineId = await ready('simultaneous');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(19);
    const rows = await t.ctx.db.kysely.selectFrom('imports').select('id').where('pipeline_id', '=', pipelineId).execute();
    expect(rows).toHaveLength(1);
  });

  it('answers the spec messages', async () => {
    const busy = await ready('busy');
    await t.call('POST', '/imports', { token: manager.token, body: { pipelineId: busy, kind: 'immediate' } });
    const twice = await t.call('POST', '/imports', { token: manager.token, body: { pipelineId: busy, kind: 'immediate' } });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Cannot create or edit the import. There is already an import running for this pipeline.');

    const unknown = await t.call('POST', '/imports', { token: manager.token, body: { pipelineId: busy, kind: 'often' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Something unexpected happened.');

    const empty = await kit.pipeline({ name: 'no sources', component, sinks: [sink('out')] });
    const noSource = await t.call('POST', '/imports', { token: manager.token, body: { pipelineId: empty, kind: 'immediate' } });
    expect(noSource.body.message).toBe('No data source in pipeline');

    const master = await kit.pipeline({ name: 'lonely master', isMaster: true, component, sources: [csvSource('prices')] });
    const lonely = await t.call('POST', '/imports', {
      token: manager.token,
      body: { pipelineId: master, kind: 'sequential', restartOnError: true, listPipelines: [] },
    });
    expect(lonely.body.message).toBe('Master pipeline has no country pipelines');

    const bare = await kit.pipeline({ name: 'bare', component, sources: [csvSource('prices')], bare: true });
    const missing = await t.call('POST', '/imports', { token: manager.token, body: { pipelineId: bare, kind: 'immediate' } });
    expect(missing.body.message).toBe('Missing field(s) : Brand Data Kind Product Line Locale');

    const past = await t.call('POST', '/imports', {
      token: manager.token,
      body: { pipelineId: bare, kind: 'scheduled', scheduledDate: '2020-01-01', scheduledTime: '10:00' },
    });
    expect(past.body.message).toBe('The scheduled date is in the past.');
  });

  it('refuses the Repeat kind to the role user, and pipelines the user may not use', async () => {
    const pipelineId = await ready('users own');
    await kit.assign(user.id, pipelineId);
    const repeat = await t.call('POST', '/imports', {
      token: user.token,
      body: { pipelineId, kind: 'repeat', repeatPattern: '0 6 * * *' },
    });
    expect(repeat.status).toBe(403);
    expect(repeat.body.message).toBe(IMPORT_MESSAGES.repeatRefused);
    const other = await ready('not assigned');
    const refused = await t.call('POST', '/imports', { token: user.token, body: { pipelineId: other, kind: 'immediate' } });
    expect(refused.status).toBe(403);
    const later = await t.call('POST', '/imports', {
      token: user.token,
      body: { pipelineId, kind: 'scheduled', scheduledDate: '2099-01-01', scheduledTime: '10:00' },
    });
    expect(later.status).toBe(200);
    const jobs = await t.call('GET', '/imports/listScheduled', { token: user.token });
    expect(jobs.status).toBe(403);
  });
});

describe('scheduled and repeat jobs', () => {
  it('lists them with their next run, edits them, and deletes them with their waiting imports', async () => {
    const pipelineId = await ready('weekly');
    const created = await t.call('POST', '/imports', {
      token: manager.token,
      body: { pipelineId, kind: 'repeat', repeatPattern: '30 6 * * mon', restartOnError: true },
    });
    expect(created.status).toBe(200);
    const { jobId, importId } = created.body.data;

    const second = await t.call('POST', '/imports', {
      token: manager.token,
      body: { pipelineId, kind: 'repeat', repeatPattern: '0 7 * * *' },
    });
    expect(second.status).toBe(409);

    const list = await t.call('GET', '/imports/listScheduled', { token: admin.token });
    expect(list.status).toBe(200);
    const job = list.body.data.repeatable.find((j: { _id: string }) => j._id === jobId);
    expect(job).toMatchObject({
      pipeline: { _id: pipelineId, name: 'weekly', version: 1 },
      jobKind: 'repeat',
      repeatPattern: '30 6 * * mon',
      lastExecuted: null,
      nextImport: { _id: importId },
      importData: { kind: 'repeat', restartOnError: true },
    });
    const next = new Date(job.nextImport.scheduledAt);
    expect(next.getUTCDay()).toBe(1);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([6, 30]);
    expect(list.body.data.imports.map((i: { _id: string }) => i._id)).toContain(importId);

    const current = await t.call('GET', `/imports/job?pipelineId=${pipelineId}`, { token: manager.token });
    expect(current.body.data.job._id).toBe(jobId);
    expect(current.body.data.imp).toMatchObject({ _id: importId, state: 'pending' });

    const edited = await t.call('POST', '/imports/job', {
      token: manager.token,
      body: { jobId, kind: 'scheduled', scheduledDate: '2099-02-03', scheduledTime: '04:05' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.jobId).toBe(jobId);
    const gone = await t.ctx.db.kysely.selectFrom('imports').select('id').where('id', '=', importId).executeTakeFirst();
    expect(gone).toBeUndefined();
    const after = await t.call('GET', '/imports/listScheduled', { token: manager.token });
    const moved = after.body.data.scheduled.find((j: { _id: string }) => j._id === jobId);
    expect(moved.nextImport.scheduledAt).toBe('2099-02-03T04:05:00.000Z');
    expect(after.body.data.repeatable.some((j: { _id: string }) => j._id === jobId)).toBe(false);

    const refused = await t.call('DELETE', `/imports/job?jobId=${jobId}`, { token: user.token });
    expect(refused.status).toBe(403);
    const deleted = await t.call('DELETE', `/imports/job?jobId=${jobId}`, { token: manager.token });
    expect(deleted.status).toBe(200);
    const last = await t.call('GET', '/imports/listScheduled', { token: manager.token });
    expect(last.body.data.scheduled.some((j: { _id: string }) => j._id === jobId)).toBe(false);
    const waiting = await t.ctx.db.kysely.selectFrom('imports').select('id').where('job_id', '=', jobId).execute();
    expect(waiting).toEqual([]);
  });

  it('reads dates, times and repeat patterns on the wall clock of the job’s time zone', async () => {
    const pipelineId = await ready('paris time');
    const { jobId } = (
      await t.call('POST', '/imports', {
        token: manager.token,
        body: { pipelineId, kind: 'scheduled', scheduledDate: '2099-01-15', scheduledTime: '08:00', timezone: 'Europe/Paris' },
      })
    ).body.data;
    const list = await t.call('GET', '/imports/listScheduled', { token: manager.token });
    const job = list.body.data.scheduled.find((j: { _id: string }) => j._id === jobId);
    expect(job.nextImport.scheduledAt).toBe('2099-01-15T07:00:00.000Z');
    expect(job.importData).toMatchObject({ scheduledDate: '2099-01-15', scheduledTime: '08:00', timezone: 'Europe/Paris' });
    const repeat = await t.call('POST', '/imports/job', {
      token: manager.token,
      body: { jobId, kind: 'repeat', repeatPattern: '0 9 * * *', timezone: 'Asia/Tokyo' },
    });
    expect(repeat.status).toBe(200);
    const after = await t.call('GET', '/imports/listScheduled', { token: manager.token });
    const daily = after.body.data.repeatable.find((j: { _id: string }) => j._id === jobId);
    expect(new Date(daily.nextImport.scheduledAt).getUTCHours()).toBe(0);
    const unknown = await t.call('POST', '/imports/job', {
      token: manager.token,
      body: { jobId, kind: 'repeat', repeatPattern: '0 9 * * *', timezone: 'Mars/Olympus' },
    });
    expect(unknown.body.message).toBe('The time zone is not known.');
    await t.call('DELETE', `/imports/job?jobId=${jobId}`, { token: manager.token });
  });

  it('refuses to edit while an import runs or an immediate one waits', async () => {
    const pipelineId = await ready('edit blocked', slow);
    const { jobId } = (
      await t.call('POST', '/imports', {
        token: manager.token,
        body: { pipelineId, kind: 'scheduled', scheduledDate: '2099-01-01', scheduledTime: '10:00' },
      })
    ).body.data;
    // A pending immediate import as the table holds it (then a running one): the raw row is the point.
    const row = await t.ctx.db.kysely
      .insertInto('imports')
      .values({ id: crypto.randomUUID(), pipeline_id: pipelineId, user_id: manager.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pending = await t.call('POST', '/imports/job', { token: manager.token, body: { jobId, kind: 'immediate' } });
    expect(pending.status).toBe(409);
    expect(pending.body.message).toBe('Cannot edit the import. An immediate import is pending.');
    await t.ctx.db.kysely.updateTable('imports').set({ state: 'busy' }).where('id', '=', row.id).execute();
    const running = await t.call('POST', '/imports/job', { token: manager.token, body: { jobId, kind: 'immediate' } });
    expect(running.status).toBe(409);
    expect(running.body.message).toBe('Cannot edit the import. An import is already running.');
    await t.ctx.db.kysely.updateTable('imports').set({ state: 'done' }).where('id', '=', row.id).execute();
  });

  it('cancels a waiting import with its job (the wizard cancel)', async () => {
    const pipelineId = await ready('cancel');
    const { jobId, importId } = (
      await t.call('POST', '/imports', {
        token: manager.token,
        body: { pipelineId, kind: 'scheduled', scheduledDate: '2099-01-01', scheduledTime: '10:00' },
      })
    ).body.data;
    const res = await t.call('DELETE', `/imports?importId=${importId}`, { token: manager.token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('The current import is cancelled.');
    expect(await t.ctx.db.kysely.selectFrom('jobs').select('id').where('id', '=', jobId).executeTakeFirst()).toBeUndefined();
  });
});

describe('running, stopping and the logbook', () => {
  // The imports of these tests run; the other tests here look at imports that wait.
  beforeAll(async () => {
    await t.services.imports.startWorking({ concurrency: 2 });
  });
  afterAll(async () => {
    await t.services.imports.stopWorking();
  });

  it('runs chosen country pipelines of a master in order, and runAllImport runs them all', async () => {
    const master = await kit.pipeline({
      name: 'Master prices',
      isMaster: true,
      component,
      sources: [csvSource('prices')],
      sinks: [sink('out')],
    });
    await kit.upload(manager.token, master, 'prices', 'code,price\nM,1\n');
    const countries = [];
    for (const name of ['Country B', 'Country A']) {
      countries.push(
        await kit.pipeline({
          name,
          masterPipeline: master,
          component,
          sources: [csvSource('prices', { dataFromMaster: true })],
          sinks: [sink('out')],
        }),
      );
    }
    const chosen = await t.call('POST', '/imports', {
      token: manager.token,
      body: { pipelineId: master, kind: 'sequential', restartOnError: true, listPipelines: [countries[0]] },
    });
    expect(chosen.status).toBe(200);
    const parent = await kit.waitFor(chosen.body.data.importId, ['done', 'failed']);
    expect(parent).toMatchObject({ state: 'done', success: true, progress: 100 });
    const children = await t.ctx.db.kysely.selectFrom('imports').selectAll().where('parent_import_id', '=', parent.id).execute();
    expect(children.map((c) => [c.pipeline_id, c.state])).toEqual([[countries[0], 'done']]);
    expect(await kit.messages(parent.id)).toContain('Sequential import ended: 1 of 1 country pipelines succeeded.');
    // The country read its master's upload (dataFromMaster).
    expect(await kit.messages(children[0]?.id ?? '')).toContain('Input prices: 1 row from prices.csv.');

    const all = await t.call('POST', '/imports/runAllImport', { token: manager.token, body: { pipelineId: master } });
    expect(all.status).toBe(200);
    const run = await kit.waitFor(all.body.data.importId, ['done', 'failed']);
    expect(run.state).toBe('done');
    const order = await t.ctx.db.kysely
      .selectFrom('imports as i')
      .innerJoin('pipelines as p', 'p.id', 'i.pipeline_id')
      .select('p.name')
      .where('i.parent_import_id', '=', run.id)
      .orderBy('i.created_at')
      .execute();
    expect(order.map((r) => r.name)).toEqual(['Country A', 'Country B']);
  });

  it('stops a running import on request, frees the pipeline, and stop-all is the super-admin’s', async () => {
    const pipelineId = await ready('slow one', slow);
    const { importId } = (await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } }))
      .body.data;
    await kit.waitFor(importId, ['progress']);
    const refused = await t.call('POST', '/imports/abort-all', { token: manager.token, body: {} });
    expect(refused.status).toBe(403);
    const res = await t.call('POST', '/imports/abort', { token: manager.token, body: { importId } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Pipeline process aborted');
    const stopped = await kit.waitFor(importId, ['aborted', 'done', 'failed'], 10_000);
    expect(stopped).toMatchObject({ state: 'aborted', success: false });
    expect(await kit.messages(importId)).toContain('Pipeline process aborted');

    const next = (await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, kind: 'immediate' } })).body.data
      .importId;
    await kit.waitFor(next, ['progress']);
    const all = await t.call('POST', '/imports/abort-all', { token: superAdmin.token, body: {} });
    expect(all.body).toMatchObject({ data: true, message: 'All pipelines are now stopping' });
    expect((await kit.waitFor(next, ['aborted', 'done', 'failed'], 10_000)).state).toBe('aborted');
  });

  it('pages the logbook with its filters and lists the filter values', async () => {
    // Three imports that succeeded, the last one the user's, and one that waits for a date to come.
    const done: string[] = [];
    for (const [name, by] of [
      ['logbook one', manager],
      ['logbook two', manager],
      ['logbook three', user],
    ] as const) {
      const pipelineId = await ready(name);
      if (by === user) await kit.assign(user.id, pipelineId);
      const { importId } = (await t.call('POST', '/imports', { token: by.token, body: { pipelineId, kind: 'immediate' } })).body
        .data;
      expect((await kit.waitFor(importId, ['done', 'failed'])).state).toBe('done');
      done.push(importId);
    }
    const later = await t.call('POST', '/imports', {
      token: manager.token,
      body: { pipelineId: await ready('logbook later'), kind: 'scheduled', scheduledDate: '2099-01-01', scheduledTime: '10:00' },
    });
    expect(later.status).toBe(200);

    const filters = await t.call('GET', '/imports/listAllFilters', { token: manager.token });
    expect(filters.status).toBe(200);
    expect(filters.body.data.users.map((u: { _id: string }) => u._id)).toContain(manager.id);
    expect(filters.body.data.brands.length).toBeGreaterThan(0);

    const page0 = await t.call('GET', '/imports/listAll?pageNumber=0&nbItemsPerPage=2', { token: manager.token });
    expect(page0.status).toBe(200);
    const { totalCount, records } = page0.body.data;
    expect(records).toHaveLength(2);
    expect(totalCount).toBeGreaterThan(2);
    const page1 = await t.call('GET', '/imports/listAll?pageNumber=1&nbItemsPerPage=2', { token: manager.token });
    expect(page1.body.data.records[0]._id).not.toBe(records[0]._id);
    const everyone = await t.call('GET', `/imports/listAll?nbItemsPerPage=100`, { token: manager.token });
    expect(everyone.body.data.records).toHaveLength(totalCount);
    const starts = everyone.body.data.records.map(
      (r: { startedAt: string | null; createdAt: string }) => r.startedAt ?? r.createdAt,
    );
    expect(starts.every((s: string, i: number) => i === 0 || s <= starts[i - 1])).toBe(true);

    const succeeded = await t.call('GET', '/imports/listAll?success=true&nbItemsPerPage=100', { token: manager.token });
    expect(succeeded.body.data.records.length).toBeGreaterThan(0);
    expect(succeeded.body.data.records.every((r: { success: boolean }) => r.success)).toBe(true);
    const future = await t.call('GET', '/imports/listAll?time=future&nbItemsPerPage=100', { token: manager.token });
    expect(future.body.data.records.map((r: { _id: string }) => r._id)).toContain(later.body.data.importId);
    expect(
      future.body.data.records.every((r: { state: string; scheduledAt: string }) => r.state === 'pending' && r.scheduledAt),
    ).toBe(true);
    const byUser = await t.call('GET', `/imports/listAll?user=${user.id}&nbItemsPerPage=100`, { token: manager.token });
    expect(byUser.body.data.records.map((r: { _id: string }) => r._id)).toContain(done[2]);
    expect(byUser.body.data.records.every((r: { user: string }) => r.user === user.id)).toBe(true);
    const brand = filters.body.data.brands.find((b: { _id: string }) => b._id !== kit.props.brand);
    const none = await t.call('GET', `/imports/listAll?brand=${brand._id}`, { token: manager.token });
    expect(none.body.data).toEqual({ records: [], totalCount: 0 });
    const ofBrand = await t.call('GET', `/imports/listAll?brand=${kit.props.brand}&nbItemsPerPage=100`, { token: manager.token });
    expect(ofBrand.body.data.totalCount).toBeGreaterThan(0);
    const named = ofBrand.body.data.records.find((r: { user: string }) => r.user === manager.id);
    const managerUser = await t.services.users.byId(manager.id);
    expect(named).toMatchObject({ pipelineVersion: 1, userFirstName: managerUser?.first_name });
    expect(typeof named.pipelineName).toBe('string');
    const managerFilter = filters.body.data.users.find((u: { _id: string }) => u._id === manager.id);
    expect(managerFilter.firstName).toBe(managerUser?.first_name);
  });

  it("lists to a plain user the imports of their own pipelines only, and only those pipelines' users", async () => {
    const mine = await ready('logbook mine');
    const theirs = await ready('logbook theirs');
    await kit.assign(user.id, mine);
    const started: Record<string, string> = {};
    for (const [pipelineId, by] of [
      [mine, manager],
      [mine, user],
      [theirs, manager],
    ] as const) {
      const { importId } = (await t.call('POST', '/imports', { token: by.token, body: { pipelineId, kind: 'immediate' } })).body
        .data;
      await kit.waitFor(importId, ['done', 'failed']);
      started[`${pipelineId}-${by.id}`] = importId;
    }
    const page = await t.call('GET', '/imports/listAll?nbItemsPerPage=100', { token: user.token });
    expect(page.status).toBe(200);
    const ids = page.body.data.records.map((r: { _id: string }) => r._id);
    expect(ids).toEqual(expect.arrayContaining([started[`${mine}-${manager.id}`], started[`${mine}-${user.id}`]]));
    expect(ids).not.toContain(started[`${theirs}-${manager.id}`]);
    const assigned = new Set(
      ((await t.call('GET', '/users/pipelines', { token: user.token })).body.data.pipelines as { name: string }[]).map(
        (p) => p.name,
      ),
    );
    expect(page.body.data.records.every((r: { pipelineName: string }) => assigned.has(r.pipelineName))).toBe(true);
    expect(page.body.data.totalCount).toBe(page.body.data.records.length);

    // A filter cannot reach past the user's pipelines: another's imports stay out, a brand narrows within.
    const byManager = await t.call('GET', `/imports/listAll?user=${manager.id}&nbItemsPerPage=100`, { token: user.token });
    expect(byManager.body.data.records.map((r: { _id: string }) => r._id)).not.toContain(started[`${theirs}-${manager.id}`]);
    const ofBrand = await t.call('GET', `/imports/listAll?brand=${kit.props.brand}&nbItemsPerPage=100`, { token: user.token });
    expect(ofBrand.body.data.records.map((r: { _id: string }) => r._id)).not.toContain(started[`${theirs}-${manager.id}`]);

    const filters = await t.call('GET', '/imports/listAllFilters', { token: user.token });
    expect(filters.status).toBe(200);
    const users = filters.body.data.users.map((u: { _id: string }) => u._id);
    expect(users).toEqual(expect.arrayContaining([user.id, manager.id]));
    const stranger = await signed(['user']);
    expect((await t.call('GET', '/imports/listAll', { token: stranger.token })).body.data).toEqual({
      records: [],
      totalCount: 0,
    });
    expect((await t.call('GET', '/imports/listAllFilters', { token: stranger.token })).body.data.users).toEqual([]);
    expect((await t.call('GET', '/imports/listAll', { token: admin.token })).status).toBe(403);
  });

  it('documents POST /imports/runAllImport in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/gdb-importer/v1/docs/json', headers: { 'x-token': user.token } });
    const doc = res.json();
    const runAll = doc.paths['/gdb-importer/v1/imports/runAllImport'].post;
    expect(runAll.description).toContain('Runs every country pipeline of a master');
    expect(Object.keys(runAll.requestBody.content['application/json'].schema.properties)).toEqual([
      'pipelineId',
      'restartOnError',
    ]);
  });

  it('answers the import ids of a pipeline and the logs of an import to those who may read the pipeline', async () => {
    const pipelineId = await ready('logs');
    await kit.assign(user.id, pipelineId);
    const { importId } = (await t.call('POST', '/imports', { token: user.token, body: { pipelineId, kind: 'immediate' } })).body
      .data;
    await kit.waitFor(importId, ['done', 'failed']);
    const ids = await t.call('GET', `/imports/pipeline?pipelineId=${pipelineId}`, { token: user.token });
    expect(ids.body.data[0]).toBe(importId);
    const other = await signed(['user']);
    expect((await t.call('GET', `/logs/jobs?id=${importId}`, { token: other.token })).status).toBe(403);
    const logs = await t.call('GET', `/logs/jobs?id=${importId}`, { token: admin.token });
    expect(logs.body.data.at(-1)).toMatchObject({ level: 'success', message: 'Import done.', importId });
  });
});
