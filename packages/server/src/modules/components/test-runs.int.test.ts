// A manager floods the component editor's test runs with endless code, as an attacker would, over
// real HTTP connections: another user's test run is still answered at once, a run waiting for the
// manager's turn still gets its answer however long it waited, and runs whose requests the manager
// dropped stop holding anything.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../../test/elsewhere.ts';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';
import { loadConfig } from '../../platform/config.ts';

const RUN_LIMIT_MS = 2_500;
let t: TestApp;
let url: string;
let manager: { id: string; token: string };
let other: { id: string; token: string };
let spin: string;
let echo: string;

beforeAll(async () => {
  const defaults = loadConfig({});
  t = await createTestApp({
    // The default lane (2 isolates, 2 runs per user), a short run limit, and connections closed after 1 s idle.
    runtime: { ...defaults.runtime, timeoutMs: RUN_LIMIT_MS, testPoolSize: 2, testRunsPerUser: 2, testQueuePerUser: 2 },
    http: { ...defaults.http, idleTimeoutMs: 1_000 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${BASE}`;
  for (const who of ['manager', 'other'] as const) {
    const { user, token } = await t.signedIn(['manager']);
    if (who === 'manager') manager = { id: user.id, token };
    else other = { id: user.id, token };
  }
  // Saved by the manager, as the component editor would.
  const save = async (name: string, kind: 'instruction' | 'function', jsCode: string) => {
    const body = { name, folder: null, kind, inputs: [{ name: 'n' }], outputs: [{ name: 'n' }], jsCode };
    const res = await t.call('POST', '/components', { token: manager.token, body });
    expect(res.status, res.body.message).toBe(200);
    return res.body.data._id as string;
  };
  spin = await save('Spin', 'instruction', 'while (true) {}');
  echo = await save('Echo', 'function', 'return ctx.input.n;');
}, 60_000);
afterAll(async () => {
  await t.close();
});

/** A test run as the component editor sends it, over its own connection. */
async function testRun(who: { token: string }, id: string, n: number, signal?: AbortSignal, runId?: string) {
  const res = await fetch(`${url}/components/${id}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-token': who.token, connection: 'close' },
    body: JSON.stringify({ payload: { n }, ...(runId ? { runId } : {}) }),
    ...(signal ? { signal } : {}),
  });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; data: { output: unknown } } };
}

const settled = <T>(p: Promise<T>) =>
  p.then(
    (v) => v,
    (e: unknown) => e,
  );

describe("a manager's endless test runs", () => {
  it("hold at most one of the two test isolates: another user's run is answered at once", async () => {
    const controller = new AbortController();
    const flood = Array.from({ length: 4 }, () => settled(testRun(manager, spin, 1, controller.signal)));
    await until(() => t.services.runtime.testRuns(manager.id).waiting === 2, 2_000);
    expect(t.services.runtime.testRuns(manager.id)).toEqual({ running: 1, waiting: 2 });
    // The fourth is refused at once; the three others hold their places until stopped. Its answer is
    // waited for: on a busy machine it may still be on its way when the places are already taken.
    const refused = await Promise.race(flood);
    expect((refused as { status: number }).status).toBe(429);

    const started = Date.now();
    const answer = await testRun(other, echo, 7);
    expect(answer.body.data.output).toEqual({ n: 7 });
    expect(Date.now() - started).toBeLessThan(1_500);

    controller.abort();
    const ended = await Promise.all(flood);
    expect(ended.filter((e) => !(e instanceof Error)).map((e) => (e as { status: number }).status)).toEqual([429]);
    await until(() => t.services.runtime.testRuns(manager.id).running === 0, 2_000);
  });

  it('take no run id for a run refused because every place of the caller is taken', async () => {
    const controller = new AbortController();
    const flood = Array.from({ length: 3 }, () => settled(testRun(manager, spin, 1, controller.signal)));
    await until(() => t.services.runtime.testRuns(manager.id).waiting === 2, 2_000);
    const runId = crypto.randomUUID();
    const refused = await testRun(manager, echo, 3, undefined, runId);
    expect(refused.status).toBe(429);
    const taken = await t.ctx.db.kysely.selectFrom('test_runs').select('id').where('id', '=', runId).execute();
    expect(taken).toEqual([]);
    controller.abort();
    await Promise.all(flood);
    await until(() => t.services.runtime.testRuns(manager.id).running === 0, 2_000);
    // Once a place is free, the same id is taken by the run that gets it.
    const answered = await testRun(manager, echo, 4, undefined, runId);
    expect(answered.status).toBe(200);
    const owner = await t.ctx.db.kysely.selectFrom('test_runs').select('user_id').where('id', '=', runId).execute();
    expect(owner).toEqual([{ user_id: manager.id }]);
  });

  it('answer every run, a waiting one too, though each took longer than the connection may stay idle', async () => {
    const first = testRun(manager, spin, 1);
    await until(() => t.services.runtime.testRuns(manager.id).running === 1, 2_000);
    const queued = testRun(manager, echo, 42);
    const [timedOut, answered] = await Promise.all([first, queued]);
    expect(timedOut.body.message).toBe('Execute error : The run took longer than its limit of 2500 ms and was stopped.');
    expect(answered.status).toBe(200);
    expect(answered.body.data.output).toEqual({ n: 42 });
  });

  it('stop holding places and isolates once their requests are dropped, running or waiting', async () => {
    const controller = new AbortController();
    const dropped = [
      settled(testRun(manager, spin, 1, controller.signal)),
      settled(testRun(manager, spin, 2, controller.signal)),
    ];
    await until(() => t.services.runtime.testRuns(manager.id).waiting === 1, 2_000);
    controller.abort();
    await Promise.all(dropped);
    await until(() => t.services.runtime.testRuns(manager.id).running === 0, 1_000);
    expect(t.services.runtime.testRuns(manager.id)).toEqual({ running: 0, waiting: 0 });
    const started = Date.now();
    expect((await testRun(manager, echo, 3)).body.data.output).toEqual({ n: 3 });
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
