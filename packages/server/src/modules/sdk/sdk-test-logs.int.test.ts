// An SDK function's test run sends its log lines on the live channel while it runs, as a
// component's does: the super-admin who started it receives each line as it is written, before the
// answer; a manager receives nothing of it, subscribed before it started or refused after; the
// run's id, once taken, is refused to any other run.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveTestClient, listenLocal, testLogFollowers } from '../../../test/live-kit.ts';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';
import { LIVE_MESSAGES } from '../../platform/live/live-types.ts';

let t: TestApp;
let url: string;
let owner: string;
let ownerId: string;
let otherAdmin: string;
let manager: string;
let slowId: string;
const { connect, follow, closeAll } = testLogFollowers(() => url);

/** Logs, keeps its isolate busy about a second (the sandbox has no timers), logs again. */
const SLOW_CODE = [
  'async function (n) {',
  "  console.log('first line');",
  '  const end = Date.now() + 1000;',
  '  while (Date.now() < end) {}',
  "  console.warn('second line');",
  '  return n * 2;',
  '}',
].join('\n');

beforeAll(async () => {
  t = await createTestApp();
  url = await listenLocal(t.app);
  const first = await t.signedIn(['super-admin']);
  owner = first.token;
  ownerId = first.user.id;
  otherAdmin = (await t.signedIn(['super-admin'])).token;
  manager = (await t.signedIn(['manager'])).token;
  const save = async (functionName: string, jsCode: string) => {
    const res = await t.call('POST', '/sdk', { token: owner, body: { functionName, jsCode } });
    expect(res.status, res.body.message).toBe(200);
    return res.body.data._id as string;
  };
  slowId = await save('slowly', SLOW_CODE);
  await save('failsLoudly', "async function () {\n  console.log('before the fall');\n  throw new Error('down');\n}");
}, 60_000);

afterAll(async () => {
  closeAll();
  await t.close();
});

type Answer = { status: number; body: { message?: string; data: { output: unknown; logs: unknown[] } } };

/** A test run as the SDK editor starts it; `done` turns true when its answer came. */
function testRun(token: string, runId: string, name = 'slowly', payload: unknown[] = [21]) {
  const run = { done: false, answer: undefined as unknown as Promise<Answer> };
  run.answer = fetch(`${url}${BASE}/sdk/${name}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': token },
    body: JSON.stringify({ payload, runId }),
  }).then(async (res) => {
    run.done = true;
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  });
  return run;
}

const linesOf = (c: LiveTestClient, subscriptionId: string) =>
  c.changes.filter((ch) => ch.subscriptionId === subscriptionId).map((ch) => ch.data.fullDocument);

describe('live SDK test-run logs', () => {
  it("sends the first line to its starter before the run answers, and never to a manager; the answer's logs hold the same lines", async () => {
    const runId = randomUUID();
    // A manager subscribed before the run took the id: allowed, but the run's lines are not theirs.
    const early = await connect(manager);
    await follow(early, manager, runId, 'early');
    const mine = await connect(owner);
    await follow(mine, owner, runId, 'mine');
    const run = testRun(owner, runId);
    const first = await mine.waitFor(() => linesOf(mine, 'mine')[0], 10_000);
    expect(run.done).toBe(false);
    expect(first).toMatchObject({ _id: `${runId}:0`, runId, userId: ownerId, seq: 0, level: 'info', message: 'first line' });

    // Once the run took the id, a manager is refused it.
    const late = await connect(manager);
    late.socket.emit('subscribe', { collectionName: 'testLogs', filter: { runId }, subscriptionId: 'late', token: manager });
    expect(await late.waitFor(() => late.exceptions[0])).toEqual({ message: LIVE_MESSAGES.notAllowed, subscriptionId: 'late' });

    const answer = await run.answer;
    expect(answer.status).toBe(200);
    expect(answer.body.data.output).toBe(42);
    expect(answer.body.data.logs).toHaveLength(2);
    await mine.waitFor(() => linesOf(mine, 'mine')[1], 5_000);
    await new Promise((r) => setTimeout(r, 300));
    const lines = linesOf(mine, 'mine');
    expect(lines.map((l) => [l?.seq, l?.level, l?.message])).toEqual([
      [0, 'info', 'first line'],
      [1, 'warn', 'second line'],
    ]);
    expect(lines.map((l) => ({ level: l?.level, message: l?.message, date: l?.date }))).toEqual(answer.body.data.logs);
    expect(linesOf(early, 'early')).toEqual([]);
    expect(late.inits).toEqual([]);
    expect(late.changes).toEqual([]);

    // The run is recorded as the SDK function's, by its starter.
    const row = await t.ctx.db.kysely.selectFrom('test_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: ownerId, sdk_function_id: slowId, component_id: null });
  }, 20_000);

  it('refuses a run id already taken, to another super-admin and to its own starter', async () => {
    const runId = randomUUID();
    expect((await testRun(owner, runId, 'slowly', [1]).answer).status).toBe(200);
    const again = await testRun(owner, runId, 'slowly', [1]).answer;
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This test run id is in use.');
    expect((await testRun(otherAdmin, runId, 'slowly', [1]).answer).status).toBe(409);
  }, 20_000);

  it('sends the lines of a failed run too', async () => {
    const c = await connect(owner);
    const runId = randomUUID();
    await follow(c, owner, runId, 'fails');
    const answer = await testRun(owner, runId, 'failsLoudly', []).answer;
    expect(answer.status).toBe(422);
    expect(answer.body.message).toMatch(/^Execute error : /);
    const line = await c.waitFor(() => linesOf(c, 'fails')[0], 5_000);
    expect(line).toMatchObject({ seq: 0, level: 'info', message: 'before the fall' });
  }, 20_000);

  it('checks the run id', async () => {
    const res = await t.call('POST', '/sdk/slowly/execute', { token: owner, body: { payload: [1], runId: 'not-an-id' } });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/runId/);
  });
});
