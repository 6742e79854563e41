import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket, hex } from '../../../test/live.ts';
import type { LiveDoc } from './codec.ts';
import { LiveClient } from './live-client.ts';
import type { LiveCallbacks, LiveStatus } from './live-types.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

/** Records what one subscriber hears. */
function recorder() {
  const heard: { inits: LiveDoc[][]; events: string[]; statuses: LiveStatus[]; messages: (string | undefined)[] } = {
    inits: [],
    events: [],
    statuses: [],
    messages: [],
  };
  const callbacks: LiveCallbacks = {
    init: (docs) => heard.inits.push(docs),
    insert: (d) => heard.events.push(`insert ${d._id}`),
    update: (d) => heard.events.push(`update ${d._id}`),
    delete: (id) => heard.events.push(`delete ${id}`),
    status: (s, m) => {
      heard.statuses.push(s);
      heard.messages.push(m);
    },
  };
  return { heard, callbacks };
}

function setup(token: () => string | null | Promise<string | null> = () => 'tok-1') {
  const sockets: FakeSocket[] = [];
  const logger = { log: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const client = new LiveClient({
    getToken: token,
    createSocket: (auth) => {
      const s = new FakeSocket(auth);
      sockets.push(s);
      return s;
    },
    logger,
    retryDelayMs: () => 1_000,
    idleCloseMs: 0,
  });
  const socket = () => {
    const s = sockets.at(-1);
    if (!s) throw new Error('no socket');
    return s;
  };
  return { client, sockets, socket, logger };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('live client: the socket', () => {
  it('opens one socket with the first subscription and closes it when the last leaves', async () => {
    const { client, sockets, socket } = setup();
    expect(sockets).toHaveLength(0);
    const a = client.subscribe('logs', { filter: { importId: 'i1' } }, {});
    const b = client.subscribe('uploads', { filter: { _id: 'u1' } }, {});
    expect(sockets).toHaveLength(1);
    expect(socket().connects).toBe(1);
    socket().open();
    await tick();
    expect(socket().subscribes()).toHaveLength(2);
    client.unsubscribe(a);
    await tick();
    expect(client.open).toBe(true);
    client.unsubscribe(b);
    const c = client.subscribe('logs', { filter: { importId: 'i3' } }, {});
    await tick();
    expect(sockets).toHaveLength(1);
    client.unsubscribe(c);
    await tick();
    expect(client.open).toBe(false);
    expect(socket().disconnects).toBe(1);
    client.subscribe('logs', { filter: { importId: 'i1' } }, {});
    expect(sockets).toHaveLength(2);
  });

  it('sends the token at connection and with every message', async () => {
    let token = 'tok-1';
    const { client, socket } = setup(async () => token);
    const id = client.subscribe('logs', { filter: { importId: 'i1' } }, {});
    const auth = await new Promise((resolve) => socket().auth(resolve));
    expect(auth).toEqual({ token: 'tok-1' });
    socket().open();
    await tick();
    expect(socket().lastSubscribe()).toMatchObject({ collectionName: 'logs', filter: { importId: ['i1'] }, token: 'tok-1' });
    token = 'tok-2';
    client.unsubscribe(client.subscribe('logs', { filter: { importId: 'i2' } }, {}));
    await tick();
    expect(socket().sent.at(-1)).toMatchObject({ event: 'unsubscribe', payload: { token: 'tok-2' } });
    client.unsubscribe(id);
  });
});

describe('live client: sharing server subscriptions', () => {
  it('shares one server subscription between identical filters', async () => {
    const { client, socket } = setup();
    const one = recorder();
    const two = recorder();
    client.subscribe('logs', { filter: { importId: ['b', 'a'] } }, one.callbacks);
    socket().open();
    await tick();
    const serverId = socket().idOf({ importId: ['a', 'b'] });
    socket().fire('init', hex({ subscriptionId: serverId, data: [{ _id: '1', importId: 'a' }] }));
    client.subscribe('logs', { filter: { importId: ['a', 'b', 'a'] } }, two.callbacks);
    await tick();
    expect(socket().subscribes()).toHaveLength(1);
    expect(two.heard.inits).toEqual([[{ _id: '1', importId: 'a' }]]);
    expect(two.heard.statuses).toEqual(['live']);
    socket().fire(
      'change',
      hex({
        subscriptionId: serverId,
        data: { operationType: 'insert', documentKey: { _id: '2' }, fullDocument: { _id: '2', importId: 'b' } },
      }),
    );
    expect(one.heard.events).toEqual(['insert 2']);
    expect(two.heard.events).toEqual(['insert 2']);
    expect(client.serverSubscriptions()).toMatchObject([{ collection: 'logs', subscribers: 2 }]);
  });

  it('keeps different filters apart', async () => {
    const { client, socket } = setup();
    client.subscribe('logs', { filter: { importId: 'a' } }, {});
    client.subscribe('logs', { filter: { importId: 'b' } }, {});
    client.subscribe('logs', { filter: { uploadId: 'a' } }, {});
    socket().open();
    await tick();
    expect(socket().subscribes()).toHaveLength(3);
  });

  it('serves every subscription of a collection from one empty-filter subscription while there is one', async () => {
    const { client, socket } = setup();
    const filtered = recorder();
    const all = recorder();
    const other = recorder();
    client.subscribe('imports', { filter: { pipeline: 'p1' } }, filtered.callbacks);
    client.subscribe('logs', { filter: { importId: 'x' } }, other.callbacks);
    socket().open();
    await tick();
    const firstId = socket().idOf({ pipeline: ['p1'] });

    client.subscribe('imports', {}, all.callbacks);
    client.subscribe('imports', { filter: {} }, {});
    await tick();
    expect(socket().unsubscribes()).toEqual([firstId]);
    const allId = socket().idOf({});
    expect(
      socket()
        .subscribes()
        .filter((s) => s.collectionName === 'imports'),
    ).toHaveLength(2);
    client.subscribe('imports', { filter: { pipeline: 'p2' } }, {});
    await tick();
    expect(socket().subscribes()).toHaveLength(3);

    socket().fire(
      'init',
      hex({
        subscriptionId: allId,
        data: [
          { _id: 'i1', pipeline: 'p1' },
          { _id: 'i2', pipeline: 'p3' },
        ],
      }),
    );
    expect(all.heard.inits.at(-1)).toHaveLength(2);
    expect(filtered.heard.inits.at(-1)).toEqual([{ _id: 'i1', pipeline: 'p1' }]);
    socket().fire(
      'change',
      hex({
        subscriptionId: allId,
        data: { operationType: 'insert', documentKey: { _id: 'i3' }, fullDocument: { _id: 'i3', pipeline: 'p3' } },
      }),
    );
    socket().fire(
      'change',
      hex({
        subscriptionId: allId,
        data: { operationType: 'update', documentKey: { _id: 'i1' }, fullDocument: { _id: 'i1', pipeline: 'p1' } },
      }),
    );
    socket().fire(
      'change',
      hex({ subscriptionId: allId, data: { operationType: 'delete', documentKey: { _id: 'i1' }, fullDocument: null } }),
    );
    expect(all.heard.events).toEqual(['insert i3', 'update i1', 'delete i1']);
    expect(filtered.heard.events).toEqual(['update i1', 'delete i1']);
    expect(other.heard.events).toEqual([]);
  });

  it('subscribes the others one by one again when the last empty-filter subscription leaves', async () => {
    const { client, socket } = setup();
    const a = recorder();
    const b = recorder();
    const empty1 = client.subscribe('uploads', {}, {});
    const empty2 = client.subscribe('uploads', { filter: {} }, {});
    client.subscribe('uploads', { filter: { _id: 'u1' } }, a.callbacks);
    client.subscribe('uploads', { filter: { _id: ['u2', 'u3'] } }, b.callbacks);
    client.subscribe('uploads', { filter: { _id: 'u1' } }, {});
    socket().open();
    await tick();
    expect(socket().subscribes()).toHaveLength(1);
    const emptyId = socket().idOf({});

    client.unsubscribe(empty1);
    await tick();
    expect(socket().subscribes()).toHaveLength(1);
    client.unsubscribe(empty2);
    await tick();
    expect(socket().unsubscribes()).toEqual([emptyId]);
    expect(
      socket()
        .subscribes()
        .slice(1)
        .map((s) => s.filter),
    ).toEqual([{ _id: ['u1'] }, { _id: ['u2', 'u3'] }]);
    expect(a.heard.statuses.at(-1)).toBe('connecting');
    socket().fire('init', hex({ subscriptionId: socket().idOf({ _id: ['u1'] }), data: [{ _id: 'u1', status: 'valid' }] }));
    expect(a.heard.inits.at(-1)).toEqual([{ _id: 'u1', status: 'valid' }]);
    expect(b.heard.inits).toEqual([]);
  });
});

describe('live client: projections', () => {
  it('merges the projections of a shared subscription and subscribes again when they widen', async () => {
    const { client, socket } = setup();
    client.subscribe('logs', { filter: { importId: 'a' }, projection: { message: 1 } }, {});
    socket().open();
    await tick();
    expect(socket().lastSubscribe().projection).toEqual({ message: 1 });
    const first = socket().lastSubscribe().subscriptionId;
    client.subscribe('logs', { filter: { importId: 'a' }, projection: { level: 1 } }, {});
    await tick();
    expect(socket().unsubscribes()).toEqual([first]);
    expect(socket().lastSubscribe().projection).toEqual({ level: 1, message: 1 });
    client.subscribe('logs', { filter: { importId: 'a' }, projection: { message: true } }, {});
    await tick();
    expect(socket().subscribes()).toHaveLength(2);
  });

  it('cancels out a field one includes and another excludes', async () => {
    const { client, socket } = setup();
    client.subscribe('logs', { filter: { importId: 'a' }, projection: { message: 0, level: 0 } }, {});
    client.subscribe('logs', { filter: { importId: 'a' }, projection: { message: 1 } }, {});
    socket().open();
    await tick();
    expect(socket().lastSubscribe().projection).toEqual({ level: 0 });
    client.subscribe('logs', { filter: { importId: 'a' }, projection: { level: 1 } }, {});
    await tick();
    expect(socket().lastSubscribe().projection).toBeUndefined();
  });
  it('asks the shared empty-filter subscription for the fields its riders filter on', async () => {
    const { client, socket } = setup();
    const rider = recorder();
    client.subscribe('imports', { projection: { state: 1 } }, {});
    client.subscribe('imports', { filter: { pipeline: 'p1' }, projection: { state: 1 } }, rider.callbacks);
    socket().open();
    await tick();
    expect(socket().lastSubscribe()).toMatchObject({ filter: {}, projection: { pipeline: 1, state: 1 } });
    socket().fire(
      'init',
      hex({
        subscriptionId: socket().idOf({}),
        data: [
          { _id: 'a', pipeline: 'p1', state: 'done' },
          { _id: 'b', pipeline: 'p2', state: 'busy' },
        ],
      }),
    );
    expect(rider.heard.inits).toEqual([[{ _id: 'a', pipeline: 'p1', state: 'done' }]]);
  });
});

describe('live client: connection trouble', () => {
  it('marks every subscription disconnected, then subscribes again with a fresh init on reconnect', async () => {
    const { client, socket } = setup();
    const a = recorder();
    const b = recorder();
    client.subscribe('logs', { filter: { importId: 'a' } }, a.callbacks);
    client.subscribe('uploads', { filter: { _id: 'u' } }, b.callbacks);
    socket().open();
    await tick();
    const before = socket().idOf({ importId: ['a'] });
    socket().fire('init', hex({ subscriptionId: before, data: [{ _id: '1' }] }));
    socket().drop();
    expect(a.heard.statuses.at(-1)).toBe('disconnected');
    expect(b.heard.statuses.at(-1)).toBe('disconnected');
    socket().open();
    await tick();
    const after = socket().idOf({ importId: ['a'] });
    expect(after).not.toBe(before);
    expect(socket().subscribes()).toHaveLength(4);
    expect(socket().unsubscribes()).toEqual([]);
    socket().fire('init', hex({ subscriptionId: after, data: [{ _id: '1' }, { _id: '2' }] }));
    expect(a.heard.inits.map((docs) => docs.length)).toEqual([1, 2]);
    expect(a.heard.statuses.at(-1)).toBe('live');
    socket().fire(
      'change',
      hex({ subscriptionId: before, data: { operationType: 'insert', documentKey: { _id: '9' }, fullDocument: { _id: '9' } } }),
    );
    expect(a.heard.events).toEqual([]);
  });

  it('logs a socket error, marks subscriptions disconnected and connects again by itself when socket.io will not', async () => {
    vi.useFakeTimers();
    const { client, socket, logger } = setup();
    const a = recorder();
    client.subscribe('logs', { filter: { importId: 'a' } }, a.callbacks);
    socket().active = false;
    socket().fire('connect_error', new Error('Your session has expired.'));
    expect(logger.error).toHaveBeenCalledWith(new Error('Your session has expired.'));
    expect(a.heard.statuses.at(-1)).toBe('disconnected');
    expect(socket().connects).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(socket().connects).toBe(2);
    socket().open();
    socket().drop('io server disconnect');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(socket().connects).toBe(3);
  });

  it('marks one subscription in error on its exception, and every one disconnected on a general exception', async () => {
    const { client, socket, logger } = setup();
    const a = recorder();
    const b = recorder();
    client.subscribe('logs', { filter: { importId: 'a' } }, a.callbacks);
    client.subscribe('logs', { filter: { importId: 'b' } }, b.callbacks);
    socket().open();
    await tick();
    socket().fire('exception', {
      subscriptionId: socket().idOf({ importId: ['a'] }),
      message: 'You are not allowed to do this.',
    });
    expect(a.heard.statuses.at(-1)).toBe('error');
    expect(a.heard.messages.at(-1)).toBe('You are not allowed to do this.');
    expect(b.heard.statuses.at(-1)).toBe('connecting');
    expect(logger.error).toHaveBeenCalledWith('Live exception:', 'You are not allowed to do this.');
    socket().fire('exception', { message: 'Too many changes' });
    expect(a.heard.statuses.at(-1)).toBe('disconnected');
    expect(b.heard.statuses.at(-1)).toBe('disconnected');
  });
});

describe('live client: messages', () => {
  it("throws 'Cannot find filter with id {id}' for an unknown subscription", () => {
    const { client } = setup();
    expect(() => client.unsubscribe('nope')).toThrow('Cannot find filter with id nope');
    const id = client.subscribe('logs', { filter: { importId: 'a' } }, {});
    client.unsubscribe(id);
    expect(() => client.unsubscribe(id)).toThrow(`Cannot find filter with id ${id}`);
  });

  it("refuses another operation with 'Unsupported operationType', logged, without harming the others", async () => {
    const { client, socket, logger } = setup();
    const a = recorder();
    client.subscribe('logs', { filter: { importId: 'a' } }, a.callbacks);
    socket().open();
    await tick();
    const id = socket().idOf({ importId: ['a'] });
    socket().fire(
      'change',
      hex({ subscriptionId: id, data: { operationType: 'replace', documentKey: { _id: '1' }, fullDocument: { _id: '1' } } }),
    );
    expect(logger.error).toHaveBeenCalledWith(new Error('Unsupported operationType'));
    socket().fire(
      'change',
      hex({ subscriptionId: id, data: { operationType: 'insert', documentKey: { _id: '2' }, fullDocument: { _id: '2' } } }),
    );
    expect(a.heard.events).toEqual(['insert 2']);
  });

  it('only logs data for an unknown subscription', async () => {
    const { client, socket, logger } = setup();
    const a = recorder();
    client.subscribe('logs', { filter: { importId: 'a' } }, a.callbacks);
    socket().open();
    await tick();
    socket().fire('init', hex({ subscriptionId: 'who', data: [{ _id: '1' }] }));
    socket().fire(
      'change',
      hex({ subscriptionId: 'who', data: { operationType: 'insert', documentKey: { _id: '1' }, fullDocument: { _id: '1' } } }),
    );
    expect(logger.log).toHaveBeenCalledWith('Live data for an unknown subscription', 'who');
    expect(logger.log).toHaveBeenCalledTimes(2);
    expect(a.heard.inits).toEqual([]);
    expect(a.heard.events).toEqual([]);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('turns an insert of a document it already holds into an update', async () => {
    const { client, socket } = setup();
    const a = recorder();
    client.subscribe('logs', { filter: { importId: 'a' } }, a.callbacks);
    socket().open();
    await tick();
    const id = socket().idOf({ importId: ['a'] });
    socket().fire('init', hex({ subscriptionId: id, data: [{ _id: '1' }] }));
    socket().fire(
      'change',
      hex({ subscriptionId: id, data: { operationType: 'insert', documentKey: { _id: '1' }, fullDocument: { _id: '1' } } }),
    );
    expect(a.heard.events).toEqual(['update 1']);
  });

  it('answers a find once and closes the socket when nothing else needs it', async () => {
    const { client, socket } = setup();
    const found = client.find('logs', { filter: { uploadId: 'u' } });
    socket().open();
    await tick();
    const request = socket().sent.find((m) => m.event === 'find')?.payload;
    expect(request).toMatchObject({ collectionName: 'logs', filter: { uploadId: ['u'] }, token: 'tok-1' });
    socket().fire('find', hex({ subscriptionId: request?.subscriptionId, data: [{ _id: '1', message: 'm' }] }));
    await expect(found).resolves.toEqual([{ _id: '1', message: 'm' }]);
    await tick();
    expect(client.open).toBe(false);

    const refused = client.find('uploads', { filter: { _id: 'x' } });
    socket().open();
    await tick();
    const again = socket().sent.find((m) => m.event === 'find')?.payload;
    socket().fire('exception', { subscriptionId: again?.subscriptionId, message: 'You are not allowed to do this.' });
    await expect(refused).rejects.toThrow('You are not allowed to do this.');
  });
});
