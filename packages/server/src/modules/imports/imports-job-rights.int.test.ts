import { IMPORT_MESSAGES } from '@gdb/shared/imports/import-rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvSource, importKit, sink } from '../../../test/imports-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';

// A user meets a repeat job someone else set on their pipeline: it stays read-only to them, and
// they can still run the pipeline now or later beside it (docs/product.md §10.3: Repeat is not offered to them).

let t: TestApp;
let kit: Awaited<ReturnType<typeof importKit>>;
let user: { token: string; id: string };
let manager: { token: string; id: string; userName: string };
let component: string;

const LATER = { kind: 'scheduled', scheduledDate: '2099-01-01', scheduledTime: '10:00' };

/** A pipeline assigned to the user, with a valid upload and a manager's daily repeat job. */
async function withRepeat(name: string) {
  const pipelineId = await kit.pipeline({ name, component, sources: [csvSource('prices')], sinks: [sink('out')] });
  await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nA,1\n');
  await kit.assign(user.id, pipelineId);
  const res = await t.call('POST', '/imports', {
    token: manager.token,
    body: { pipelineId, kind: 'repeat', repeatPattern: '0 6 * * *' },
  });
  expect(res.status).toBe(200);
  return { pipelineId, repeat: res.body.data as { jobId: string; importId: string } };
}

beforeAll(async () => {
  t = await createTestApp();
  kit = await importKit(t);
  const u = await t.signedIn(['user']);
  user = { token: u.token, id: u.user.id };
  const m = await t.signedIn(['manager']);
  manager = { token: m.token, id: m.user.id, userName: m.user.user_name };
  component = await kit.component('ctx.output.out = ctx.input.prices;', ['prices'], ['out']);
});
afterAll(async () => {
  await t.close();
});

describe('a repeat job set by someone else, seen by a user', () => {
  it('is shown beside the wizard’s job, with who set it, and is not the job the user edits', async () => {
    const { pipelineId, repeat } = await withRepeat('read-only repeat');
    const seen = await t.call('GET', `/imports/job?pipelineId=${pipelineId}`, { token: user.token });
    expect(seen.status).toBe(200);
    expect(seen.body.data.job).toBeNull();
    expect(seen.body.data.others).toEqual([
      expect.objectContaining({
        _id: repeat.jobId,
        jobKind: 'repeat',
        scheduledBy: { _id: manager.id, userName: manager.userName },
      }),
    ]);
    const byManager = await t.call('GET', `/imports/job?pipelineId=${pipelineId}`, { token: manager.token });
    expect(byManager.body.data.job._id).toBe(repeat.jobId);
    expect(byManager.body.data.others).toEqual([]);
  });

  it('cannot be replaced, deleted or cancelled by the user', async () => {
    const { pipelineId, repeat } = await withRepeat('untouchable repeat');
    const replaced = await t.call('POST', '/imports/job', { token: user.token, body: { jobId: repeat.jobId, ...LATER } });
    expect(replaced.status).toBe(403);
    expect(replaced.body.message).toBe(IMPORT_MESSAGES.jobNotYours);
    const deleted = await t.call('DELETE', `/imports/job?jobId=${repeat.jobId}`, { token: user.token });
    expect(deleted.status).toBe(403);
    const cancelled = await t.call('DELETE', `/imports?importId=${repeat.importId}`, { token: user.token });
    expect(cancelled.status).toBe(403);
    const after = await t.call('GET', `/imports/job?pipelineId=${pipelineId}`, { token: manager.token });
    expect(after.body.data.job).toMatchObject({ _id: repeat.jobId, jobKind: 'repeat', repeatPattern: '0 6 * * *' });
  });

  it('leaves the user free to run now, or later beside it (one Later job per pipeline)', async () => {
    const { pipelineId, repeat } = await withRepeat('run beside repeat');
    const later = await t.call('POST', '/imports', { token: user.token, body: { pipelineId, ...LATER } });
    expect(later.status).toBe(200);
    const again = await t.call('POST', '/imports', { token: user.token, body: { pipelineId, ...LATER } });
    expect(again.status).toBe(409);
    const seen = await t.call('GET', `/imports/job?pipelineId=${pipelineId}`, { token: user.token });
    expect(seen.body.data.job).toMatchObject({ _id: later.body.data.jobId, jobKind: 'scheduled' });
    expect(seen.body.data.others.map((j: { _id: string }) => j._id)).toEqual([repeat.jobId]);
    const now = await t.call('POST', '/imports', { token: user.token, body: { pipelineId, kind: 'immediate' } });
    expect(now.status).toBe(200);
  });
});

describe('switching a Later job to Now', () => {
  it('lets a user delete a scheduled job of their pipeline, as the wizard does', async () => {
    const pipelineId = await kit.pipeline({
      name: 'later to now',
      component,
      sources: [csvSource('prices')],
      sinks: [sink('out')],
    });
    await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nA,1\n');
    await kit.assign(user.id, pipelineId);
    const later = await t.call('POST', '/imports', { token: user.token, body: { pipelineId, ...LATER } });
    const deleted = await t.call('DELETE', `/imports/job?jobId=${later.body.data.jobId}`, { token: user.token });
    expect(deleted.status).toBe(200);
    const seen = await t.call('GET', `/imports/job?pipelineId=${pipelineId}`, { token: user.token });
    expect(seen.body.data.job).toBeNull();
  });

  it('still refuses a user a job of a pipeline they are not given', async () => {
    const pipelineId = await kit.pipeline({
      name: 'not theirs',
      component,
      sources: [csvSource('prices')],
      sinks: [sink('out')],
    });
    await kit.upload(manager.token, pipelineId, 'prices', 'code,price\nA,1\n');
    const later = await t.call('POST', '/imports', { token: manager.token, body: { pipelineId, ...LATER } });
    const refused = await t.call('DELETE', `/imports/job?jobId=${later.body.data.jobId}`, { token: user.token });
    expect(refused.status).toBe(403);
  });
});
