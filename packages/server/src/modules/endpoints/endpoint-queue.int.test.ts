import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointKit } from '../../../test/endpoints-kit.ts';
import type { TestApp } from '../../../test/test-app.ts';

// Calls of an endpoint while its pipeline is busy: every valid call is taken (202), its upload
// waits switched on for the next run, which every call meanwhile shares; none is lost or imported twice.

let t: TestApp;
let kit: Awaited<ReturnType<typeof endpointKit>>['kit'];
let published: Awaited<ReturnType<typeof endpointKit>>['published'];
beforeAll(async () => {
  ({ t, kit, published } = await endpointKit());
});
afterAll(async () => {
  await t.close();
});

const COPY = 'ctx.output.out = ctx.input.prices;';
/** The sandbox has no timers: the run keeps its isolate busy for a while. */
const SLOW = 'const end = Date.now() + 2500; while (Date.now() < end) {} ctx.output.out = ctx.input.prices;';

const call = (path: string, key: string, rows: unknown[], query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/gdb-runtime/v1/${path}${query}`,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    payload: JSON.stringify(rows),
  });

const uploadsOf = (pipelineId: string) =>
  t.ctx.db.kysely
    .selectFrom('uploads')
    .select(['id', 'imported_by', 'enabled'])
    .where('pipeline_id', '=', pipelineId)
    .where('from', '=', 'source')
    .execute();

/**
 * A call imported, then its upload switched on and not imported again: as if the process had
 * stopped between storing the call and asking for its run. Answers the call's answer.
 */
async function leftWaiting(path: string, key: string): Promise<{ uploadId: string; importId: string }> {
  const done = (await call(path, key, [{ code: 'W', price: 1 }], '?wait=30')).json().data;
  expect(done.state).toBe('done');
  await t.ctx.db.kysely
    .updateTable('uploads')
    .set({ enabled: true, imported_at: null, imported_by: null })
    .where('id', '=', done.uploadId)
    .execute();
  return done;
}

/** Waits until every source upload of the pipeline is imported; answers them. */
async function allImported(pipelineId: string, count: number, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await uploadsOf(pipelineId);
    if (rows.length === count && rows.every((r) => r.imported_by !== null)) return rows;
    if (Date.now() > until) throw new Error(`${rows.filter((r) => r.imported_by).length} of ${count} uploads imported`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function state(importId: string) {
  const row = await t.ctx.db.kysely.selectFrom('imports').select('state').where('id', '=', importId).executeTakeFirst();
  return row?.state;
}

describe('calls while the pipeline is busy', () => {
  it('takes 50 calls fired at once: all 202, every row imported exactly once, in a few runs', async () => {
    const { id, key } = await published('queue/many', COPY);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call('queue/many', key, [{ code: `C${i}`, price: i }])),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 202));
    const uploads = await allImported(id, 50);
    const runs = [...new Set(uploads.map((u) => u.imported_by as string))];
    expect(runs.length).toBeLessThanOrEqual(5);
    for (const run of runs) expect(await state(run)).toBe('done');
    const outputs = await t.ctx.db.kysely
      .selectFrom('uploads')
      .select(['import_id', 'row_count'])
      .where('pipeline_id', '=', id)
      .where('from', '=', 'destination')
      .execute();
    // Each row once: the runs' outputs hold 50 rows in all.
    expect(outputs.reduce((n, o) => n + (o.row_count ?? 0), 0)).toBe(50);
    expect(uploads.every((u) => !u.enabled)).toBe(true);
  });

  it('imports a call made during a long run by the next run, which ?wait= answers with its outputs', async () => {
    const { id, key } = await published('queue/long', SLOW);
    const first = (await call('queue/long', key, [{ code: 'A', price: 1 }])).json().data;
    await kit.waitFor(first.importId, ['busy', 'progress']);
    const second = await call('queue/long', key, [{ code: 'B', price: 2 }]);
    expect(second.statusCode).toBe(202);
    expect(second.json().data).toMatchObject({ queued: true });
    const next = second.json().data.importId as string;
    expect(next).not.toBe(first.importId);
    const waited = await call('queue/long', key, [{ code: 'C', price: 3 }], '?wait=30');
    expect(waited.statusCode).toBe(200);
    const data = waited.json().data;
    expect(data).toMatchObject({ importId: next, queued: true, state: 'done' });
    expect(data.outputs).toEqual([expect.objectContaining({ importId: next, dataSubKind: 'out', rowCount: 2 })]);
    const uploads = await allImported(id, 3);
    const by = new Map(uploads.map((u) => [u.id, u.imported_by]));
    expect(by.get(first.uploadId)).toBe(first.importId);
    expect(by.get(second.json().data.uploadId)).toBe(next);
    expect(by.get(data.uploadId)).toBe(next);
  });

  it('gives a run at start to endpoint uploads left switched on and not imported', async () => {
    const { id, key } = await published('queue/resume', COPY);
    const done = await leftWaiting('queue/resume', key);
    expect(await t.services.imports.resumeWaitingFeeds()).toBeGreaterThanOrEqual(1);
    const [upload] = await allImported(id, 1);
    expect(upload?.imported_by).not.toBe(done.importId);
  });

  it('gives no run at start to waiting uploads whose publisher may no longer change the pipeline', async () => {
    const publisher = await t.signedIn(['manager']);
    const { id, key } = await published('queue/resume-gone', COPY, { token: publisher.token });
    await leftWaiting('queue/resume-gone', key);
    // The publisher is no longer a manager: the upload waits, no run acts for them.
    await t.ctx.db.kysely
      .updateTable('users')
      .set({ roles: ['user'] })
      .where('id', '=', publisher.user.id)
      .execute();
    const before = await t.ctx.db.kysely.selectFrom('imports').select('id').where('pipeline_id', '=', id).execute();
    await t.services.imports.resumeWaitingFeeds();
    const after = await t.ctx.db.kysely.selectFrom('imports').select('id').where('pipeline_id', '=', id).execute();
    expect(after.length).toBe(before.length);
    const [upload] = await uploadsOf(id);
    expect(upload).toMatchObject({ imported_by: null });
  });
});
