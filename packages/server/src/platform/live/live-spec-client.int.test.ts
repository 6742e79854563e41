import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildImport, buildPipeline } from '../../../test/factories.ts';
import { connectLive, hubOn, type LiveTestClient, urlOf, waitFor } from '../../../test/live-kit.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import type { LiveHub } from './live-hub.ts';
import { LIVE_MESSAGES } from './live-types.ts';

// A client written to docs/product.md §15 opens the socket without a token and sends it in each message.

const AUTH_TIMEOUT_MS = 600;
const MAX_SOCKETS = 3;

let t: TestApp;
let hub: LiveHub;
let server: http.Server;
let url: string;
const clients: LiveTestClient[] = [];

async function connect(token?: string) {
  const c = await connectLive(url, token);
  clients.push(c);
  return c;
}

async function logsOfNewImport() {
  const { id: pipelineId } = await buildPipeline(t);
  const importId = await buildImport(t, pipelineId);
  await t.services.logs.append({ level: 'info', message: 'hello', importId });
  return importId;
}

beforeAll(async () => {
  t = await createTestApp();
  server = http.createServer();
  hub = hubOn(server, t, { authTimeoutMs: AUTH_TIMEOUT_MS, maxSocketsPerUser: MAX_SOCKETS });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = urlOf(server.address());
});

afterAll(async () => {
  for (const c of clients) c.close();
  await hub.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('live channel: a client that sends its token in its messages', () => {
  it('is served find and subscribe, each authorised by the token it carries', async () => {
    const { token } = await t.signedIn(['manager']);
    const importId = await logsOfNewImport();
    const c = await connect();
    c.socket.emit('find', { collectionName: 'logs', filter: { importId }, subscriptionId: 'f' });
    c.socket.emit('find', { collectionName: 'logs', filter: { importId }, subscriptionId: 'f2', token: 'forged' });
    c.socket.emit('find', { collectionName: 'logs', filter: { importId }, subscriptionId: 'f3', token });
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 's', token });
    await c.waitFor(() => c.inits[0] && c.finds[0] && c.exceptions.length >= 2);
    expect(c.exceptions).toEqual([
      { subscriptionId: 'f', message: LIVE_MESSAGES.authRequired },
      { subscriptionId: 'f2', message: 'Invalid token.' },
    ]);
    expect(c.finds.map((f) => [f.subscriptionId, f.data.map((d) => d.message)])).toEqual([['f3', ['hello']]]);
    expect(c.inits[0]?.subscriptionId).toBe('s');
    await t.services.logs.append({ level: 'info', message: 'later', importId });
    expect((await c.waitFor(() => c.changes[0])).data.fullDocument?.message).toBe('later');

    // A later message without a token is authorised by the last valid one.
    c.socket.emit('find', { collectionName: 'logs', filter: { importId }, subscriptionId: 'f4' });
    expect((await c.waitFor(() => c.finds[1])).subscriptionId).toBe('f4');
    await new Promise((r) => setTimeout(r, AUTH_TIMEOUT_MS + 200));
    expect(c.socket.connected).toBe(true);
  });

  it('is closed when no valid token arrived in time', async () => {
    const silent = await connect();
    const forger = await connect();
    forger.socket.emit('subscribe', { collectionName: 'logs', filter: {}, subscriptionId: 'x', token: 'forged' });
    for (const c of [silent, forger]) {
      await c.waitFor(() => !c.socket.connected, AUTH_TIMEOUT_MS + 2_000);
      expect(c.exceptions.at(-1)).toEqual({ message: LIVE_MESSAGES.authTimeout });
    }
  });

  it('ends when the session of its token logs out, as a handshake one does', async () => {
    const { token } = await t.signedIn(['manager']);
    const importId = await logsOfNewImport();
    const c = await connect();
    c.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 's', token });
    await c.waitFor(() => c.inits[0]);
    expect((await t.call('POST', '/users/logout', { token })).status).toBe(200);
    await c.waitFor(() => !c.socket.connected);
    expect(c.exceptions).toEqual([{ message: LIVE_MESSAGES.revoked }]);
  });

  it('counts against the sockets of the user whose token it sends first', async () => {
    const { token } = await t.signedIn(['user']);
    const held = await Promise.all(Array.from({ length: MAX_SOCKETS }, () => connect(token)));
    await expect(connect(token)).rejects.toThrow(LIVE_MESSAGES.tooManySockets);
    const late = await connect();
    late.socket.emit('find', { collectionName: 'imports', filter: {}, subscriptionId: 'f', token });
    await late.waitFor(() => !late.socket.connected);
    expect(late.exceptions).toContainEqual({ message: LIVE_MESSAGES.tooManySockets });
    expect(late.finds).toEqual([]);

    const before = hub.stats().sockets;
    held[0]?.close();
    await waitFor(() => hub.stats().sockets === before - 1);
    expect((await connect(token)).socket.connected).toBe(true);
  });
});
