// A component's test run sends its log lines on the live channel while it runs: the user who started
// it (and a super-admin) receives each line as it is written, before the answer; another manager is
// refused the run's id, and receives nothing of it even when they subscribed before it started.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveTestClient, listenLocal, testLogFollowers } from '../../../test/live-kit.ts';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';
import { LIVE_MESSAGES } from '../../platform/live/live-types.ts';

let t: TestApp;
let url: string;
let owner: string;
let ownerId: string;
let otherManager: string;
let superAdmin: string;
let plainUser: string;
let slow: string;
const { connect, follow, closeAll } = testLogFollowers(() => url);

/** Logs, keeps its isolate busy about a second (the sandbox has no timers), logs again. */
const SLOW_CODE = [
  "ctx.log('first line');",
  'const end = Date.now() + 1000;',
  'while (Date.now() < end) {}',
  "ctx.log.warn('second line');",
  'ctx.output.n = ctx.input.n;',
].join('\n');

beforeAll(async () => {
  t = await createTestApp();
  url = await listenLocal(t.app);
  const first = await t.signedIn(['manager']);
  owner = first.token;
  ownerId = first.user.id;
  otherManager = (await t.signedIn(['manager'])).token;
  superAdmin = (await t.signedIn(['super-admin'])).token;
  plainUser = (await t.signedIn(['user'])).token;
  const body = {
    name: 'Slow',
    folder: null,
    kind: 'instruction',
    inputs: [{ name: 'n' }],
    outputs: [{ name: 'n' }],
    jsCode: SLOW_CODE,
  };
  const res = await t.call('POST', '/components', { token: owner, body });
  expect(res.status, res.body.message).toBe(200);
  slow = res.body.data._id as string;
}, 60_000);

afterAll(async () => {
  closeAll();
  await t.close();
});

/** A test run as the component editor starts it; `done` turns true when its answer came. */
function testRun(token: string, runId: string) {
  const run = { done: false, answer: undefined as unknown as Promise<{ status: number; body: { data: { logs: unknown[] } } }> };
  run.answer = fetch(`${url}${BASE}/components/${slow}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': token },
    body: JSON.stringify({ payload: { n: 3 }, runId }),
  }).then(async (res) => {
    run.done = true;
    return { status: res.status, body: (await res.json()) as { data: { logs: unknown[] } } };
  });
  return run;
}

const linesOf = (c: LiveTestClient, subscriptionId: string) =>
  c.changes.filter((ch) => ch.subscriptionId === subscriptionId).map((ch) => ch.data.fullDocument);

describe('live test-run logs', () => {
  it("sends each line while the run goes on, once, and the answer's logs hold the same lines", async () => {
    const c = await connect(owner);
    const runId = randomUUID();
    await follow(c, owner, runId, 'mine');
    const run = testRun(owner, runId);
    const first = await c.waitFor(() => linesOf(c, 'mine')[0], 10_000);
    expect(run.done).toBe(false);
    expect(first).toMatchObject({ _id: `${runId}:0`, runId, userId: ownerId, seq: 0, level: 'info', message: 'first line' });
    const answer = await run.answer;
    expect(answer.status).toBe(200);
    expect(answer.body.data.logs).toHaveLength(2);
    const lines = await c.waitFor(() => (linesOf(c, 'mine').length >= 2 ? linesOf(c, 'mine') : undefined));
    await new Promise((r) => setTimeout(r, 200));
    expect(linesOf(c, 'mine').map((l) => [l?.seq, l?.level, l?.message])).toEqual([
      [0, 'info', 'first line'],
      [1, 'warn', 'second line'],
    ]);
    expect(lines.map((l) => ({ level: l?.level, message: l?.message, date: l?.date }))).toEqual(answer.body.data.logs);
  }, 20_000);

  it("refuses another manager a run's id, and sends them nothing of it; a super-admin follows it", async () => {
    const runId = randomUUID();
    // Subscribed before the run took the id: allowed, but the owner's lines are not theirs.
    const early = await connect(otherManager);
    await follow(early, otherManager, runId, 'early');
    const mine = await connect(owner);
    await follow(mine, owner, runId, 'mine');
    const run = testRun(owner, runId);
    await mine.waitFor(() => linesOf(mine, 'mine')[0], 10_000);

    const late = await connect(otherManager);
    late.socket.emit('subscribe', { collectionName: 'testLogs', filter: { runId }, subscriptionId: 'late', token: otherManager });
    const refused = await late.waitFor(() => late.exceptions[0]);
    expect(refused).toEqual({ message: LIVE_MESSAGES.notAllowed, subscriptionId: 'late' });
    const user = await connect(plainUser);
    user.socket.emit('subscribe', { collectionName: 'testLogs', filter: { runId }, subscriptionId: 'u', token: plainUser });
    expect(await user.waitFor(() => user.exceptions[0])).toEqual({ message: LIVE_MESSAGES.notAllowed, subscriptionId: 'u' });
    const admin = await connect(superAdmin);
    await follow(admin, superAdmin, runId, 'admin');

    // The id is the owner's: another manager cannot start a run with it.
    const taken = await fetch(`${url}${BASE}/components/${slow}/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-token': otherManager },
      body: JSON.stringify({ payload: { n: 1 }, runId }),
    });
    expect(taken.status).toBe(409);

    expect((await run.answer).status).toBe(200);
    await admin.waitFor(() => linesOf(admin, 'admin').find((l) => l?.message === 'second line'), 5_000);
    await mine.waitFor(() => linesOf(mine, 'mine')[1]);
    await new Promise((r) => setTimeout(r, 300));
    expect(linesOf(early, 'early')).toEqual([]);
    expect(late.inits).toEqual([]);
    expect(late.changes).toEqual([]);
    expect(user.changes).toEqual([]);
  }, 20_000);

  it('asks for a run id filter', async () => {
    const c = await connect(owner);
    c.socket.emit('subscribe', { collectionName: 'testLogs', filter: {}, subscriptionId: 'all', token: owner });
    expect((await c.waitFor(() => c.exceptions[0])).message).toBe('A filter on runId is required for testLogs.');
    c.socket.emit('subscribe', { collectionName: 'testLogs', filter: { runId: 'x' }, subscriptionId: 'bad', token: owner });
    expect((await c.waitFor(() => c.exceptions[1])).message).toBe('Invalid value for runId in the filter.');
  });
});
