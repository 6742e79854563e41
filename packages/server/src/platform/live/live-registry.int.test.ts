import http from 'node:http';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLive, type LiveTestClient, urlOf } from '../../../test/live-kit.ts';
import { createTestDb } from '../../../test/test-db.ts';
import type { AuthContext } from '../auth/access-control.ts';
import type { CollectionDef } from './collections.ts';
import { LiveHub } from './live-hub.ts';
import { LIVE_MESSAGES } from './live-types.ts';

// The hub serves only the collections registered with it, each with its own reads, projection
// from rows and read rule; it knows nothing else of the modules that own them.

let testDb: Awaited<ReturnType<typeof createTestDb>>;
let server: http.Server;
let hub: LiveHub;
let url: string;
const clients: LiveTestClient[] = [];

/** Tokens are role names here: the caller of 'manager' holds that role. */
const authenticate = async (token: string): Promise<AuthContext> => ({
  userId: `user-${token}`,
  sessionId: `session-${token}`,
  userName: token,
  roles: [token],
});

const shelf: CollectionDef = {
  name: 'uploads',
  uuidKeys: [],
  requiresFilter: false,
  read: async () => [{ _id: 'a', name: 'first', secret: 'kept' }],
  byId: async () => undefined,
  fromRow: () => undefined,
  fromKeys: (id) => ({ _id: id }),
  mayRead: async (caller) => caller.roles.includes('manager'),
};

beforeAll(async () => {
  testDb = await createTestDb();
  server = http.createServer();
  hub = new LiveHub(server, {
    db: testDb.db,
    authenticate,
    openSessions: async (ids) => new Set(ids),
    log: pino({ level: 'silent' }),
    limits: { sessionCheckMs: 600_000 },
  });
  hub.register(shelf);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = urlOf(server.address());
});

afterAll(async () => {
  for (const c of clients) c.close();
  await hub.close();
  await new Promise((resolve) => server.close(resolve));
  await testDb.drop();
});

async function client(): Promise<LiveTestClient> {
  const c = await connectLive(url, undefined);
  clients.push(c);
  return c;
}

describe('registered collections', () => {
  it('serves a registered collection through its reads and read rule, and refuses the unregistered', async () => {
    const c = await client();
    c.socket.emit('subscribe', {
      collectionName: 'uploads',
      filter: {},
      projection: { name: 1 },
      subscriptionId: 'ok',
      token: 'manager',
    });
    await c.waitFor(() => c.inits[0]);
    expect(c.inits[0]).toEqual({ subscriptionId: 'ok', data: [{ _id: 'a', name: 'first' }] });

    c.socket.emit('find', { collectionName: 'uploads', filter: {}, subscriptionId: 'no', token: 'user' });
    c.socket.emit('find', { collectionName: 'logs', filter: { importId: 'x' }, subscriptionId: 'unknown', token: 'manager' });
    await c.waitFor(() => c.exceptions.length >= 2);
    expect(c.exceptions).toEqual(
      expect.arrayContaining([
        { subscriptionId: 'no', message: LIVE_MESSAGES.notAllowed },
        { subscriptionId: 'unknown', message: 'Unknown collection logs.' },
      ]),
    );
  });

  it('takes each collection once', () => {
    expect(() => hub.register({ ...shelf })).toThrow('The live collection uploads is registered already.');
  });
});
