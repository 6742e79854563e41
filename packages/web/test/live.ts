// A socket.io stand-in for tests of the live client and the hooks built on it: it records what
// the client sends and lets a test play the server.
import { encode } from '@msgpack/msgpack';
import { beforeEach } from 'vitest';
import { configureLive } from '../src/ground/live/configure.ts';
import { LiveClient } from '../src/ground/live/live-client.ts';
import type { LiveSocket } from '../src/ground/live/live-types.ts';

type Listener = (arg: unknown) => void;

/** A socket that records what the client sends and lets the test play the server. */
export class FakeSocket implements LiveSocket {
  connected = false;
  active = true;
  connects = 0;
  disconnects = 0;
  sent: { event: string; payload: Record<string, unknown> }[] = [];
  readonly #listeners = new Map<string, Listener[]>();
  readonly auth: (cb: (data: Record<string, string>) => void) => void;

  constructor(auth: (cb: (data: Record<string, string>) => void) => void) {
    this.auth = auth;
  }

  connect() {
    this.connects += 1;
  }
  disconnect() {
    this.connected = false;
    this.disconnects += 1;
  }
  emit(event: string, payload: unknown) {
    if (typeof payload !== 'object' || payload === null) throw new Error('payload must be an object');
    this.sent.push({ event, payload: { ...payload } });
  }
  on(event: string, listener: Listener) {
    this.#listeners.set(event, [...(this.#listeners.get(event) ?? []), listener]);
  }
  fire(event: string, arg?: unknown) {
    for (const l of this.#listeners.get(event) ?? []) l(arg);
  }
  /** The server accepts the connection. */
  open() {
    this.connected = true;
    this.fire('connect');
  }
  drop(reason = 'transport close') {
    this.connected = false;
    this.fire('disconnect', reason);
  }
  subscribes() {
    return this.sent.filter((m) => m.event === 'subscribe').map((m) => m.payload);
  }
  unsubscribes() {
    return this.sent.filter((m) => m.event === 'unsubscribe').map((m) => m.payload.subscriptionId);
  }
  lastSubscribe() {
    const s = this.subscribes().at(-1);
    if (!s) throw new Error('nothing subscribed');
    return s;
  }
  idOf(filter: Record<string, unknown>) {
    const s = this.subscribes()
      .filter((p) => JSON.stringify(p.filter) === JSON.stringify(filter))
      .at(-1);
    if (typeof s?.subscriptionId !== 'string') throw new Error(`no subscription for ${JSON.stringify(filter)}`);
    return s.subscriptionId;
  }
}

/** A socket whose server accepts the connection and answers each subscription with an empty init. */
export class ServedSocket extends FakeSocket {
  override connect() {
    super.connect();
    setTimeout(() => this.open(), 0);
  }
  override emit(event: string, payload: unknown) {
    super.emit(event, payload);
    const id = (payload as { subscriptionId?: unknown }).subscriptionId;
    if (event === 'subscribe') setTimeout(() => this.fire('init', hex({ subscriptionId: id, data: [] })), 0);
  }
}

/** Hex MessagePack, as the server sends init, change and find. */
export const hex = (value: unknown) => Array.from(encode(value), (b) => b.toString(16).padStart(2, '0')).join('');

/** A live client over fake sockets; `socket()` is the latest one. */
export function fakeLiveClient(token = 'tok-1') {
  const sockets: FakeSocket[] = [];
  const client = new LiveClient({
    getToken: () => token,
    createSocket: (auth) => {
      const s = new FakeSocket(auth);
      sockets.push(s);
      return s;
    },
    logger: { log: () => {}, warn: () => {}, error: () => {} },
    idleCloseMs: 0,
  });
  const socket = () => {
    const s = sockets.at(-1);
    if (!s) throw new Error('no socket');
    return s;
  };
  return { client, sockets, socket };
}

/** The sockets the app's live client opens in a test file, each made by `make`, pushed as opened (set up before each test). */
export function openedSockets<S extends LiveSocket>(make: (auth: ConstructorParameters<typeof FakeSocket>[0]) => S): S[] {
  const sockets: S[] = [];
  beforeEach(() => {
    configureLive({
      createSocket: (auth) => {
        const socket = make(auth);
        sockets.push(socket);
        return socket;
      },
    });
  });
  return sockets;
}

/** The sockets the app's live client opens in a test file, each a ServedSocket, pushed as opened (set up before each test). */
export const servedSockets = (): ServedSocket[] => openedSockets((auth) => new ServedSocket(auth));
