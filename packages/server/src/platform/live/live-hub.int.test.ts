import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignPipeline, buildImport, buildPipeline, buildUpload } from '../../../test/factories.ts';
import { connectLive, type LiveTestClient, listenLocal, waitFor } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { createChangeFeed } from './change-feed.ts';
import { LIVE_MESSAGES } from './live-types.ts';

let t: TestApp;
let url: string;
let managerToken: string;
const clients: LiveTestClient[] = [];

async function connect(token: string | undefined) {
  const c = await connectLive(url, token);
  clients.push(c);
  return c;
}

/** Lets in-flight notifications arrive before asserting that nothing more came. */
const settle = () => new Promise((r) => setTimeout(r, 150));

beforeAll(async () => {
  t = await createTestApp();
  url = await listenLocal(t.app);
  managerToken = (await t.signedIn(['manager'])).token;
});

afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('live channel: connection', () => {
  it('accepts a connection without a token, refuses one with a bad token', async () => {
    expect((await connect(undefined)).socket.connected).toBe(true);
    await expect(connect('not-a-token')).rejects.toThrow('Invalid token.');
  });

  it('refuses a user their 21st socket with a message', async () => {
    const { token } = await t.signedIn(['user']);
    const open = await Promise.all(Array.from({ length: 20 }, () => connect(token)));
    expect(open.every((c) => c.socket.connected)).toBe(true);
    await expect(connect(token)).rejects.toThrow(LIVE_MESSAGES.tooManySockets);
    const before = t.live.stats().sockets;
    open[0]?.close();
    await waitFor(() => t.live.stats().sockets === before - 1);
    expect((await connect(token)).socket.connected).toBe(true);
  });

  it('answers websocket only, on /data-prep/v1 of the API port', async () => {
    const polling = await fetch(`${url}/data-prep/v1/?EIO=4&transport=polling`);
    expect(polling.status).toBe(400);
    const c = await connect(managerToken);
    expect(c.socket.connected).toBe(true);
  });
});

describe('live channel: logs', () => {
  it('sends the logs of an import oldest first, then each new line in commit order', async () => {
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    const other = await buildImport(t, pipelineId);
    await t.services.logs.append([
      { level: 'info', message: 'first', importId },
      { level: 'warn', message: 'second', importId, dataSubKind: 'main' },
      { level: 'info', message: 'elsewhere', importId: other },
    ]);
    const c = await connect(managerToken);
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 's1', token: managerToken });
    const init = await c.waitFor(() => c.inits[0]);
    expect(init.subscriptionId).toBe('s1');
    expect(init.data.map((d) => d.message)).toEqual(['first', 'second']);
    expect(init.data[1]).toMatchObject({ level: 'warn', dataSubKind: 'main', importId, uploadId: null });
    expect(typeof init.data[1]?.logDate).toBe('string');

    for (let i = 0; i < 20; i++) await t.services.logs.append({ level: 'info', message: `line ${i}`, importId });
    await t.services.logs.append({ level: 'error', message: 'not mine', importId: other });
    await t.ctx.db.kysely.transaction().execute(async (trx) => {
      await t.services.logs.append({ level: 'success', message: 'in a transaction', importId }, trx);
    });
    await c.waitFor(() => c.changes.length >= 21);
    await settle();
    expect(c.changes.map((ch) => ch.data.fullDocument?.message)).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `line ${i}`),
      'in a transaction',
    ]);
    expect(c.changes[0]?.data).toMatchObject({
      operationType: 'insert',
      documentKey: { _id: c.changes[0]?.data.fullDocument?._id },
    });
    expect(c.changes.every((ch) => ch.subscriptionId === 's1')).toBe(true);
  });

  it('sends a line too long for a notification by reading it', async () => {
    const { id: pipelineId } = await buildPipeline(t);
    const uploadId = await buildUpload(t, pipelineId);
    const c = await connect(managerToken);
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { uploadId }, subscriptionId: 'big', token: managerToken });
    await c.waitFor(() => c.inits[0]);
    const long = 'x'.repeat(9_000);
    await t.services.logs.append([
      { level: 'info', message: long, uploadId },
      { level: 'info', message: 'short', uploadId },
    ]);
    await c.waitFor(() => c.changes.length >= 2);
    expect(c.changes.map((ch) => ch.data.fullDocument?.message)).toEqual([long, 'short']);
  });

  it('announces the lines one statement writes together and sends each, in order', async () => {
    const heard: string[] = [];
    const feed = createChangeFeed(t.ctx.db, { onPayload: (p) => heard.push(p), onResync: () => {} }, t.app.log);
    await feed.start();
    try {
      const { id: pipelineId } = await buildPipeline(t);
      const importId = await buildImport(t, pipelineId);
      const c = await connect(managerToken);
      c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'many', token: managerToken });
      await c.waitFor(() => c.inits[0]);
      // One line too long for a notification, read back in its place among the others.
      const messages = Array.from({ length: 1000 }, (_, i) => (i === 500 ? 'x'.repeat(9_000) : `line ${i}`));
      await t.services.logs.append(messages.map((message) => ({ level: 'info' as const, message, importId })));
      await c.waitFor(() => c.changes.length >= 1000);
      expect(c.changes.map((ch) => ch.data.fullDocument?.message)).toEqual(messages);
      const mine = () => heard.map((p) => JSON.parse(p)).filter((n) => n.t === 'logs' && JSON.stringify(n).includes(importId));
      const announced = () => mine().reduce((sum, n) => sum + (Array.isArray(n.rows) ? n.rows.length : 1), 0);
      await waitFor(() => announced() === 1000);
      // Row by row, a thousand notifications; whole rows of about 200 bytes, 7,700 bytes at most each.
      expect(mine().length).toBeLessThan(50);
    } finally {
      await feed.stop();
    }
  });

  it('hears each notification once per process, on one listening connection the hub and every cache share', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const feedOf = (into: string[]) =>
      createChangeFeed(t.ctx.db, { onPayload: (p) => into.push(p), onResync: () => {} }, t.app.log);
    const a = feedOf(first);
    const b = feedOf(second);
    await Promise.all([a.start(), b.start()]);
    const said = (into: string[], message: string) => into.some((p) => p.includes(message));
    try {
      const uploadId = await buildUpload(t, (await buildPipeline(t)).id);
      await t.services.logs.append({ level: 'info', message: 'heard by both', uploadId });
      await waitFor(() => said(first, 'heard by both') && said(second, 'heard by both'));
      expect(first.filter((p) => p.includes('heard by both'))).toHaveLength(1);
      if (t.ctx.db.pgPool) {
        const { rows } = await t.ctx.db.pgPool.query(
          "select count(*)::int as n from pg_stat_activity where application_name = 'gdb-live' and datname = current_database()",
        );
        expect(rows[0].n).toBe(1);
      }
      // One leaving does not stop the others.
      await a.stop();
      await t.services.logs.append({ level: 'info', message: 'heard by the second', uploadId });
      await waitFor(() => said(second, 'heard by the second'));
      expect(said(first, 'heard by the second')).toBe(false);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it('applies the projection to init and changes, always keeping _id', async () => {
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    await t.services.logs.append({ level: 'info', message: 'hello', importId });
    const c = await connect(managerToken);
    c.socket.emit('subscribe', {
      collectionName: 'logs',
      filter: { importId: [importId] },
      projection: { message: 1 },
      subscriptionId: 'p',
      token: managerToken,
    });
    const init = await c.waitFor(() => c.inits[0]);
    expect(Object.keys(init.data[0] ?? {}).sort()).toEqual(['_id', 'message']);
    await t.services.logs.append({ level: 'info', message: 'again', importId });
    const change = await c.waitFor(() => c.changes[0]);
    expect(Object.keys(change.data.fullDocument ?? {}).sort()).toEqual(['_id', 'message']);
  });

  it('stops sending after unsubscribe', async () => {
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    const c = await connect(managerToken);
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'u', token: managerToken });
    await c.waitFor(() => c.inits[0]);
    await t.services.logs.append({ level: 'info', message: 'one', importId });
    await c.waitFor(() => c.changes[0]);
    c.socket.emit('unsubscribe', { subscriptionId: 'u', token: managerToken });
    await settle();
    await t.services.logs.append({ level: 'info', message: 'two', importId });
    await settle();
    expect(c.changes).toHaveLength(1);
  });

  it('answers a find once, without later changes', async () => {
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    await t.services.logs.append({ level: 'info', message: 'found', importId });
    const c = await connect(managerToken);
    c.socket.emit('find', { collectionName: 'logs', filter: { importId }, subscriptionId: 'f', token: managerToken });
    const found = await c.waitFor(() => c.finds[0]);
    expect(found).toMatchObject({ subscriptionId: 'f', data: [{ message: 'found', importId }] });
    await t.services.logs.append({ level: 'info', message: 'later', importId });
    await settle();
    expect(c.changes).toHaveLength(0);
  });
});

describe('live channel: uploads and imports', () => {
  it('shows an upload status change and its deletion without reload', async () => {
    const k = t.ctx.db.kysely;
    const { id: pipelineId } = await buildPipeline(t);
    const a = await buildUpload(t, pipelineId);
    const b = await buildUpload(t, pipelineId, { dataSubKind: 'prices' });
    const c = await connect(managerToken);
    c.socket.emit('subscribe', { collectionName: 'uploads', filter: { _id: [a, b] }, subscriptionId: 'up', token: managerToken });
    const init = await c.waitFor(() => c.inits[0]);
    expect(init.data.map((d) => d._id).sort()).toEqual([a, b].sort());
    expect(init.data.find((d) => d._id === b)).toMatchObject({
      pipelineId,
      dataSubKind: 'prices',
      from: 'source',
      status: 'pending',
      originalFilename: 'data.csv',
      enabled: true,
    });
    await k.updateTable('uploads').set({ status: 'valid', row_count: 12 }).where('id', '=', a).execute();
    const update = await c.waitFor(() => c.changes[0]);
    expect(update.data).toMatchObject({
      operationType: 'update',
      documentKey: { _id: a },
      fullDocument: { _id: a, status: 'valid', rowCount: 12 },
    });
    await k.deleteFrom('uploads').where('id', '=', b).execute();
    const del = await c.waitFor(() => c.changes[1]);
    expect(del.data).toEqual({ operationType: 'delete', documentKey: { _id: b }, fullDocument: null });
  });

  it('follows the imports of a pipeline for the logbook', async () => {
    const k = t.ctx.db.kysely;
    const { id: pipelineId } = await buildPipeline(t);
    const first = await buildImport(t, pipelineId);
    const c = await connect(managerToken);
    c.socket.emit('subscribe', {
      collectionName: 'imports',
      filter: { pipeline: pipelineId },
      subscriptionId: 'i',
      token: managerToken,
    });
    const init = await c.waitFor(() => c.inits[0]);
    expect(init.data).toMatchObject([{ _id: first, pipeline: pipelineId, state: 'pending', success: false }]);
    const second = await buildImport(t, pipelineId);
    await k
      .updateTable('imports')
      .set({ state: 'done', success: true, end_at: new Date('2026-01-02T03:04:05Z') })
      .where('id', '=', first)
      .execute();
    await c.waitFor(() => c.changes.length >= 2);
    expect(c.changes.map((ch) => [ch.data.operationType, ch.data.documentKey._id])).toEqual([
      ['insert', second],
      ['update', first],
    ]);
    expect(c.changes[1]?.data.fullDocument).toMatchObject({ state: 'done', success: true, endAt: '2026-01-02T03:04:05.000Z' });
  });
});

describe('live channel: rights', () => {
  it('lets a user follow only the pipelines assigned and active for them', async () => {
    const k = t.ctx.db.kysely;
    const mine = await buildPipeline(t, { name: 'mine' });
    const theirs = await buildPipeline(t, { name: 'theirs' });
    const paused = await buildPipeline(t, { name: 'paused' });
    const { user, token } = await t.signedIn(['user']);
    await assignPipeline(t, user.id, mine.familyId);
    await assignPipeline(t, user.id, paused.familyId, false);
    const myImport = await buildImport(t, mine.id);
    const theirImport = await buildImport(t, theirs.id);
    const theirUpload = await buildUpload(t, theirs.id);
    const pausedUpload = await buildUpload(t, paused.id);

    const c = await connect(token);
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId: myImport }, subscriptionId: 'ok', token });
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId: theirImport }, subscriptionId: 'no1', token });
    c.socket.emit('subscribe', { collectionName: 'uploads', filter: { _id: theirUpload }, subscriptionId: 'no2', token });
    c.socket.emit('subscribe', { collectionName: 'uploads', filter: { _id: pausedUpload }, subscriptionId: 'no3', token });
    c.socket.emit('subscribe', { collectionName: 'imports', filter: {}, subscriptionId: 'no4', token });
    c.socket.emit('subscribe', {
      collectionName: 'logs',
      filter: { importId: [myImport, theirImport] },
      subscriptionId: 'no5',
      token,
    });
    c.socket.emit('find', { collectionName: 'logs', filter: { importId: theirImport }, subscriptionId: 'no6', token });
    await c.waitFor(() => c.exceptions.length >= 6 && c.inits.length >= 1);
    expect(c.inits.map((i) => i.subscriptionId)).toEqual(['ok']);
    expect(c.exceptions).toEqual(
      ['no1', 'no2', 'no3', 'no4', 'no5', 'no6'].map((subscriptionId) => ({ subscriptionId, message: LIVE_MESSAGES.notAllowed })),
    );

    await t.services.logs.append({ level: 'info', message: 'secret', importId: theirImport });
    await t.services.logs.append({ level: 'info', message: 'visible', importId: myImport });
    await k.updateTable('uploads').set({ status: 'valid' }).where('id', 'in', [theirUpload, pausedUpload]).execute();
    await c.waitFor(() => c.changes[0]);
    await settle();
    expect(c.changes.map((ch) => ch.data.fullDocument?.message)).toEqual(['visible']);
    expect(c.finds).toHaveLength(0);
  });

  it('ends the subscriptions of a session when it logs out', async () => {
    const { token } = await t.signedIn(['manager']);
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    const c = await connect(token);
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'x', token });
    await c.waitFor(() => c.inits[0]);
    const bystander = await connect(managerToken);
    bystander.socket.emit('subscribe', {
      collectionName: 'logs',
      filter: { importId },
      subscriptionId: 'y',
      token: managerToken,
    });
    await bystander.waitFor(() => bystander.inits[0]);

    expect((await t.call('POST', '/users/logout', { token })).status).toBe(200);
    await c.waitFor(() => c.exceptions[0]);
    expect(c.exceptions[0]).toEqual({ message: LIVE_MESSAGES.revoked });
    await c.waitFor(() => !c.socket.connected);
    await t.services.logs.append({ level: 'info', message: 'after logout', importId });
    await bystander.waitFor(() => bystander.changes[0]);
    await settle();
    expect(c.changes).toHaveLength(0);
    expect(bystander.exceptions).toHaveLength(0);
    await expect(connect(token)).rejects.toThrow(LIVE_MESSAGES.revoked);
  });

  it('refuses a subscribe carrying a revoked token on a socket opened earlier', async () => {
    const first = await t.signedIn(['manager']);
    const second = await t.login(first.user.user_name);
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    const c = await connect(second);
    await t.call('POST', '/users/logout', { token: first.token });
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'r', token: first.token });
    await c.waitFor(() => c.exceptions[0]);
    expect(c.exceptions[0]).toEqual({ subscriptionId: 'r', message: LIVE_MESSAGES.revoked });
    expect(c.inits).toHaveLength(0);
  });
});

describe('live channel: bad messages', () => {
  it('answers an exception to anything malformed and keeps serving', async () => {
    const c = await connect(managerToken);
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    const bad: [string, unknown][] = [
      ['subscribe', { collectionName: 'users', filter: {}, subscriptionId: 'a', token: managerToken }],
      ['subscribe', { collectionName: 'logs', filter: {}, subscriptionId: 'b', token: managerToken }],
      ['subscribe', { collectionName: 'logs', filter: { message: 'x' }, subscriptionId: 'c', token: managerToken }],
      ['subscribe', { collectionName: 'logs', filter: { importId: 'not-a-uuid' }, subscriptionId: 'd', token: managerToken }],
      ['subscribe', { collectionName: 'logs', filter: { importId }, projection: { a: 1, b: 0 }, subscriptionId: 'e' }],
      ['subscribe', 'just text'],
      ['subscribe', null],
      ['subscribe', { collectionName: 'logs', filter: { importId: { $gt: '' } }, subscriptionId: 'f' }],
      ['find', { collectionName: 42 }],
      ['unsubscribe', {}],
      ['drop', { collectionName: 'logs' }],
      ['subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'g', token: 'forged' }],
    ];
    for (const [event, payload] of bad) c.socket.emit(event, payload);
    await c.waitFor(() => c.exceptions.length >= bad.length);
    const messages = c.exceptions.map((e) => e.message);
    expect(messages).toContain('Unknown collection users.');
    expect(messages).toContain('A filter on uploadId or importId is required for logs.');
    expect(messages).toContain('Cannot filter logs on message.');
    expect(messages).toContain('Invalid value for importId in the filter.');
    expect(messages).toContain('A projection either includes fields or excludes them.');
    expect(messages).toContain('Unknown event drop.');
    expect(messages).toContain('Invalid token.');
    expect(messages.filter((m) => m.startsWith('Invalid message: '))).toHaveLength(5);
    expect(c.exceptions.find((e) => e.message.startsWith('Unknown collection'))?.subscriptionId).toBe('a');

    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'fine', token: managerToken });
    expect((await c.waitFor(() => c.inits[0])).subscriptionId).toBe('fine');
    expect(c.socket.connected).toBe(true);
  });

  it('limits the subscriptions of one socket', async () => {
    const c = await connect(managerToken);
    const { id: pipelineId } = await buildPipeline(t);
    const importId = await buildImport(t, pipelineId);
    for (let i = 0; i <= 100; i++) {
      c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: `s${i}` });
    }
    await c.waitFor(() => c.exceptions[0] && c.inits.length >= 100);
    expect(c.exceptions).toEqual([{ subscriptionId: 's100', message: LIVE_MESSAGES.tooMany }]);
    expect(t.live.stats().subscriptions).toBeGreaterThanOrEqual(100);
  });
});

describe('live channel: closing', () => {
  it('disconnects its sockets when the app closes', async () => {
    const other = await createTestApp();
    const otherUrl = await listenLocal(other.app);
    const { token } = await other.signedIn(['manager']);
    const c = await connectLive(otherUrl, token);
    clients.push(c);
    await other.close();
    await waitFor(() => !c.socket.connected);
  });
});
