import { randomUUID } from 'node:crypto';
import type { LoginAnswer } from '@gdb/shared/auth/session.schemas';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImport, buildPipeline, buildUpload } from '../../../test/factories.ts';
import { connectLive, type LiveTestClient, listenLocal } from '../../../test/live-kit.ts';
import { BASE, createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/test-app.ts';
import { type BuiltApp, buildApp } from '../../app.ts';
import { type Db, openDb } from '../db/index.ts';
import { LIVE_MESSAGES } from './live-types.ts';

const databaseUrl = process.env.DATABASE_URL;

// Two instances need a database server both can reach; PGlite lives inside one process.
describe.runIf(databaseUrl)('live channel across two instances (runs only when DATABASE_URL names a PostgreSQL server)', () => {
  let a: TestApp;
  let b: BuiltApp;
  let dbB: Db;
  let urlA: string;
  const clients: LiveTestClient[] = [];

  /** Signs in through instance B and answers the token. */
  async function loginThroughB(userName: string): Promise<string> {
    const res = await b.app.inject({
      method: 'POST',
      url: `${BASE}/users/login`,
      payload: { username: userName, password: TEST_PASSWORD },
    });
    const data: LoginAnswer = res.json().data;
    if (!data.token) throw new Error('login through B asked for more than a password');
    return data.token.value;
  }

  beforeAll(async () => {
    a = await createTestApp();
    urlA = await listenLocal(a.app);
    const url = a.ctx.db.pgPool?.options.connectionString;
    if (!url) throw new Error('instance A is not on PostgreSQL');
    dbB = await openDb({ databaseUrl: url });
    b = await buildApp(a.ctx.config, { db: dbB, web: false });
    await b.app.ready();
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await b.app.close();
    await dbB.close();
    await a.close();
  });

  it('delivers to a subscriber on instance A what instance B writes, in commit order', async () => {
    const user = await a.createUser(['manager']);
    const token = await loginThroughB(user.user_name);
    const { id: pipelineId } = await buildPipeline(b);
    const importId = await buildImport(b, pipelineId);
    const uploadId = await buildUpload(b, pipelineId);

    const c = await connectLive(urlA, token);
    clients.push(c);
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'logs', token });
    c.socket.emit('subscribe', { collectionName: 'uploads', filter: { _id: uploadId }, subscriptionId: 'up', token });
    await c.waitFor(() => c.inits.length === 2);

    for (let i = 0; i < 50; i++) await b.services.logs.append({ level: 'info', message: `B line ${i}`, importId });
    await dbB.kysely.updateTable('uploads').set({ status: 'invalid' }).where('id', '=', uploadId).execute();
    await c.waitFor(() => c.changes.length === 51);
    const logs = c.changes.filter((ch) => ch.subscriptionId === 'logs').map((ch) => ch.data.fullDocument?.message);
    expect(logs).toEqual(Array.from({ length: 50 }, (_, i) => `B line ${i}`));
    expect(c.changes.find((ch) => ch.subscriptionId === 'up')?.data.fullDocument).toMatchObject({
      _id: uploadId,
      status: 'invalid',
    });
  });

  it("streams a test run's lines from the instance running it to a subscriber on the other, and refuses another manager there", async () => {
    const owner = await a.createUser(['manager']);
    const token = await loginThroughB(owner.user_name);
    const other = await a.signedIn(['manager']);
    const urlB = `${await listenLocal(b.app)}${BASE}`;
    const post = (path: string, body: unknown) =>
      fetch(`${urlB}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-token': token },
        body: JSON.stringify(body),
      });
    const jsCode = "ctx.log('from B'); const end = Date.now() + 500; while (Date.now() < end) {} ctx.output.n = 1;";
    const saved = await post('/components', {
      name: 'Logs from B',
      folder: null,
      kind: 'instruction',
      inputs: [],
      outputs: [{ name: 'n' }],
      jsCode,
    });
    const componentId = ((await saved.json()) as { data: { _id: string } }).data._id;
    const runId = randomUUID();
    const c = await connectLive(urlA, token);
    clients.push(c);
    c.socket.emit('subscribe', { collectionName: 'testLogs', filter: { runId }, subscriptionId: 't', token });
    await c.waitFor(() => c.inits[0]);

    const run = post(`/components/${componentId}/execute`, { payload: {}, runId });
    const line = await c.waitFor(() => c.changes.find((ch) => ch.subscriptionId === 't'), 10_000);
    expect(line.data.fullDocument).toMatchObject({ runId, seq: 0, message: 'from B' });
    const o = await connectLive(urlA, other.token);
    clients.push(o);
    o.socket.emit('subscribe', { collectionName: 'testLogs', filter: { runId }, subscriptionId: 'x', token: other.token });
    expect(await o.waitFor(() => o.exceptions[0])).toEqual({ message: LIVE_MESSAGES.notAllowed, subscriptionId: 'x' });
    expect((await run).status).toBe(200);
  });

  it('ends on instance A the subscriptions of a session logged out through instance B', async () => {
    const user = await a.createUser(['manager']);
    const token = await loginThroughB(user.user_name);
    const { id: pipelineId } = await buildPipeline(b);
    const importId = await buildImport(b, pipelineId);
    const c = await connectLive(urlA, token);
    clients.push(c);
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 's', token });
    await c.waitFor(() => c.inits[0]);
    await b.app.inject({ method: 'POST', url: `${BASE}/users/logout`, headers: { 'x-token': token } });
    await c.waitFor(() => c.exceptions[0]);
    expect(c.exceptions[0]).toEqual({ message: LIVE_MESSAGES.revoked });
    await c.waitFor(() => !c.socket.connected);
  });

  it('sends a fresh init when the change listener had to reconnect, so nothing written meanwhile is lost', async () => {
    const { token } = await a.signedIn(['manager']);
    const { id: pipelineId } = await buildPipeline(b);
    const importId = await buildImport(b, pipelineId);
    const c = await connectLive(urlA, token);
    clients.push(c);
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'r', token });
    await c.waitFor(() => c.inits[0]);

    await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where application_name = 'gdb-live' and datname = current_database()`.execute(dbB.kysely);
    await b.services.logs.append({ level: 'warn', message: 'written while A was not listening', importId });
    const fresh = await c.waitFor(() => c.inits[1], 10_000);
    const seen = [...fresh.data.map((d) => d.message), ...c.changes.map((ch) => ch.data.fullDocument?.message)];
    expect(seen).toContain('written while A was not listening');

    await b.services.logs.append({ level: 'info', message: 'after the reconnect', importId });
    await c.waitFor(() => c.changes.some((ch) => ch.data.fullDocument?.message === 'after the reconnect'));
  });
});
