// Helpers for the live channel's tests and benchmarks: a socket.io client that records what it
// receives, and a hub of a test's own (rows come from `factories.ts`).
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  LIVE_OPERATIONS,
  LIVE_PATH,
  type LiveChange,
  type LiveEnvelope,
  type LiveException,
} from '@gdb/shared/live/live.schemas';
import { decode } from '@msgpack/msgpack';
import type { FastifyInstance } from 'fastify';
import { io, type Socket } from 'socket.io-client';
import { z } from 'zod';
import { registerLiveCollections, type Services } from '../src/app.ts';
import type { Authenticate } from '../src/platform/auth/access-control.ts';
import type { Db } from '../src/platform/db/index.ts';
import { LiveHub } from '../src/platform/live/live-hub.ts';
import type { LiveLimits } from '../src/platform/live/live-types.ts';

type Doc = { _id: string } & Record<string, unknown>;

export interface LiveTestClient {
  socket: Socket;
  inits: LiveEnvelope<Doc[]>[];
  changes: LiveEnvelope<LiveChange<Doc>>[];
  finds: LiveEnvelope<Doc[]>[];
  exceptions: LiveException[];
  /** Event names in the order they arrived. */
  events: string[];
  /** Resolves with the first truthy value `check` returns, polling every 10 ms. */
  waitFor<T>(check: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  close(): void;
}

const docSchema = z.looseObject({ _id: z.string() });
const docsEnvelope = z.object({ subscriptionId: z.string(), data: z.array(docSchema) });
const changeEnvelope = z.object({
  subscriptionId: z.string(),
  data: z.object({
    operationType: z.enum(LIVE_OPERATIONS),
    documentKey: z.object({ _id: z.string() }),
    fullDocument: docSchema.nullable(),
  }),
});

/** Decodes the hex MessagePack text of init, change and find, checking its shape. */
function decodeHex<T>(schema: z.ZodType<T>, hex: unknown): T {
  if (typeof hex !== 'string' || !/^[0-9a-f]*$/.test(hex)) throw new Error('expected hex text');
  return schema.parse(decode(Buffer.from(hex, 'hex')));
}

export async function waitFor<T>(check: () => T | undefined | null | false, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > until) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The http URL of a listening app or server. */
export function urlOf(address: AddressInfo | string | null): string {
  if (!address || typeof address === 'string') throw new Error('server is not listening on a port');
  return `http://127.0.0.1:${address.port}`;
}

/** A hub of its own on `server`, with the app's collections registered as the app registers them. */
export function hubOn(
  server: http.Server,
  app: { ctx: { db: Db }; services: Services; app: FastifyInstance },
  limits: Partial<LiveLimits>,
): LiveHub {
  const authenticate: Authenticate = (token) => app.services.auth.authenticate(token);
  const openSessions = (ids: readonly string[]) => app.services.auth.openSessions(ids);
  const hub = new LiveHub(server, { db: app.ctx.db, authenticate, openSessions, log: app.app.log, limits });
  registerLiveCollections(hub, app.ctx.db, app.services);
  return hub;
}

/** Starts the app on an ephemeral 127.0.0.1 port and answers its URL. */
export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return urlOf(app.server.address());
}

/** Connects to the live channel; rejects with the server's message when the connection is refused. */
export function connectLive(url: string, token: string | undefined): Promise<LiveTestClient> {
  const socket = io(url, {
    path: LIVE_PATH,
    transports: ['websocket'],
    auth: token === undefined ? {} : { token },
    reconnection: false,
    forceNew: true,
  });
  const client: LiveTestClient = {
    socket,
    inits: [],
    changes: [],
    finds: [],
    exceptions: [],
    events: [],
    waitFor,
    close: () => socket.close(),
  };
  socket.on('init', (hex: unknown) => {
    client.events.push('init');
    client.inits.push(decodeHex(docsEnvelope, hex));
  });
  socket.on('change', (hex: unknown) => {
    client.events.push('change');
    client.changes.push(decodeHex(changeEnvelope, hex));
  });
  socket.on('find', (hex: unknown) => {
    client.events.push('find');
    client.finds.push(decodeHex(docsEnvelope, hex));
  });
  socket.on('exception', (e: LiveException) => {
    client.events.push('exception');
    client.exceptions.push(e);
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(client));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/**
 * Followers of test runs' log lines for a test file: `connect` opens a live client to the server
 * at `url()` (closed by `closeAll`), `follow` subscribes it to a run's `testLogs` and resolves once
 * the subscription's init (empty) arrived.
 */
export function testLogFollowers(url: () => string) {
  const clients: LiveTestClient[] = [];
  return {
    async connect(token: string): Promise<LiveTestClient> {
      const c = await connectLive(url(), token);
      clients.push(c);
      return c;
    },
    async follow(c: LiveTestClient, token: string, runId: string, subscriptionId: string): Promise<void> {
      c.socket.emit('subscribe', { collectionName: 'testLogs', filter: { runId }, subscriptionId, token });
      await c.waitFor(() => c.inits.find((i) => i.subscriptionId === subscriptionId));
    },
    closeAll(): void {
      for (const c of clients) c.close();
    },
  };
}
