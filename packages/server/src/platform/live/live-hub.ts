import type { Server as HttpServer } from 'node:http';
import { LIVE_PATH, type LiveCollection } from '@gdb/shared/live/live.schemas';
import type { FastifyBaseLogger } from 'fastify';
import { type DefaultEventsMap, Server } from 'socket.io';
import type { AuthContext, Authenticate } from '../auth/access-control.ts';
import type { Db } from '../db/index.ts';
import { type ChangeFeed, createChangeFeed } from './change-feed.ts';
import type { CollectionDef } from './collections.ts';
import { liveHandshake } from './live-handshake.ts';
import { NotificationRouting } from './live-routing.ts';
import { Subscriptions, sendException } from './live-subscriptions.ts';
import {
  type Client,
  DEFAULT_LIVE_LIMITS,
  LIVE_MESSAGES,
  LiveError,
  type LiveLimits,
  type LiveSocket,
  type SocketData,
  subscriptionIdOf,
} from './live-types.ts';
import { OutboundQueue } from './outbound-queue.ts';

/** Which of these sessions are still open (not revoked, not expired, their user active); the sign-in module answers it. */
export type OpenSessions = (sessionIds: readonly string[]) => Promise<ReadonlySet<string>>;

export interface LiveHubOptions {
  db: Db;
  authenticate: Authenticate;
  openSessions: OpenSessions;
  log: FastifyBaseLogger;
  limits?: Partial<LiveLimits>;
}

/**
 * The live-data hub: socket.io on the API's HTTP server at /data-prep/v1 (websocket only).
 * Clients `find`, `subscribe` and `unsubscribe`; the hub answers `init`, `change` and `find` as
 * hex MessagePack of `{subscriptionId, data}`, and `exception` with a message. Changes come from
 * database notifications, so every instance serves every subscriber. Its parts: the handshake
 * (live-handshake.ts), the subscriptions (live-subscriptions.ts) and the notifications' routing
 * (live-routing.ts); the hub holds the connected clients and their sessions.
 */
export class LiveHub {
  readonly #io: Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;
  readonly #openSessions: OpenSessions;
  readonly #log: FastifyBaseLogger;
  readonly #limits: LiveLimits;
  /** The collections the modules registered, by name. */
  readonly #collections = new Map<LiveCollection, CollectionDef>();
  readonly #feed: ChangeFeed;
  readonly #subscriptions: Subscriptions;
  readonly #routing: NotificationRouting;
  readonly #clients = new Set<Client>();
  readonly #socketsByUser = new Map<string, number>();
  readonly #timer: NodeJS.Timeout;
  #dropped = 0;

  constructor(server: HttpServer, options: LiveHubOptions) {
    this.#openSessions = options.openSessions;
    this.#log = options.log;
    this.#limits = { ...DEFAULT_LIVE_LIMITS, ...options.limits };
    this.#feed = createChangeFeed(
      options.db,
      { onPayload: (payload) => this.#routing.onPayload(payload), onResync: () => this.#resync() },
      options.log,
    );
    this.#subscriptions = this.#subscriptionsOf(options.authenticate);
    this.#routing = new NotificationRouting({
      collections: this.#collections,
      subscriptions: this.#subscriptions,
      log: this.#log,
      endSession: (id) => this.#endSession(id),
      endUser: (id) => this.#endUser(id),
    });
    this.#io = new Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>(server, {
      path: LIVE_PATH,
      transports: ['websocket'],
      serveClient: false,
      maxHttpBufferSize: 64 * 1024,
    });
    const userSockets = (userId: string) => this.#userSockets(userId);
    this.#io.use(
      liveHandshake({ authenticate: options.authenticate, userSockets, maxSocketsPerUser: this.#limits.maxSocketsPerUser }),
    );
    this.#io.on('connection', (socket) => this.#connected(socket));
    this.#timer = setInterval(() => void this.#checkSessions(), this.#limits.sessionCheckMs);
    this.#timer.unref();
  }

  #subscriptionsOf(authenticate: Authenticate): Subscriptions {
    return new Subscriptions({
      collections: this.#collections,
      feed: this.#feed,
      limits: this.#limits,
      log: this.#log,
      authenticate,
      connected: (client) => this.#clients.has(client),
      own: (client, caller) => this.#own(client, caller),
      kick: (client, message) => this.#kick(client, message),
    });
  }

  /** Connected sockets, open subscriptions, messages and characters waiting; sockets dropped for falling behind and changes sent since start. */
  stats() {
    let queued = 0;
    let queuedChars = 0;
    for (const c of this.#clients) {
      queued += c.queue.length;
      queuedChars += c.queue.chars;
    }
    return {
      sockets: this.#clients.size,
      subscriptions: this.#subscriptions.index.size,
      queued,
      queuedChars,
      behind: this.#dropped,
      delivered: this.#subscriptions.delivered,
    };
  }

  /** Adds a collection of the live channel: its reads, its projection from rows and its read rule. */
  register(def: CollectionDef): void {
    if (this.#collections.has(def.name)) throw new Error(`The live collection ${def.name} is registered already.`);
    this.#collections.set(def.name, def);
  }

  /** Starts listening for changes now rather than with the first subscription. */
  start(): Promise<void> {
    return this.#feed.start();
  }

  /** Disconnects every socket and stops listening. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#io.disconnectSockets(true);
    this.#io.engine.close();
    await this.#feed.stop();
    await this.#routing.settled().catch(() => {});
  }

  #connected(socket: LiveSocket): void {
    const client: Client = {
      socket,
      caller: undefined,
      token: socket.data.token,
      subs: new Map(),
      chain: Promise.resolve(),
      pending: 0,
      authTimer: undefined,
      queue: new OutboundQueue(
        { writable: () => socket.conn.transport.writable, send: (event, payload) => socket.emit(event, payload) },
        { maxMessages: this.#limits.maxQueuedMessages, maxChars: this.#limits.maxQueuedChars },
        { onOverflow: () => this.#fellBehind(client) },
      ),
    };
    this.#clients.add(client);
    socket.on('disconnect', () => this.#drop(client));
    const caller = socket.data.caller;
    // Handshakes run in parallel: the count is checked again now that it is exact.
    if (caller && !this.#own(client, caller)) {
      this.#kick(client, LIVE_MESSAGES.tooManySockets);
      return;
    }
    if (!caller) {
      client.authTimer = setTimeout(() => this.#kick(client, LIVE_MESSAGES.authTimeout), this.#limits.authTimeoutMs);
    }
    socket.conn.transport.on('ready', () => client.queue.drain());
    const subs = this.#subscriptions;
    socket.on('subscribe', (raw) => this.#handle(client, raw, () => subs.subscribe(client, raw)));
    socket.on('find', (raw) => this.#handle(client, raw, () => subs.find(client, raw)));
    socket.on('unsubscribe', (raw) => this.#handle(client, raw, async () => subs.unsubscribe(client, raw)));
    socket.onAny((event: string, raw: unknown) => {
      if (event !== 'subscribe' && event !== 'find' && event !== 'unsubscribe') {
        sendException(client, `Unknown event ${String(event).slice(0, 50)}.`, subscriptionIdOf(raw));
      }
    });
  }

  #userSockets(userId: string): number {
    return this.#socketsByUser.get(userId) ?? 0;
  }

  /** Makes the caller the socket's owner, counted against their sockets; false past the limit. */
  #own(client: Client, caller: AuthContext): boolean {
    const count = this.#userSockets(caller.userId);
    if (count >= this.#limits.maxSocketsPerUser) return false;
    this.#socketsByUser.set(caller.userId, count + 1);
    client.caller = caller;
    clearTimeout(client.authTimer);
    client.authTimer = undefined;
    return true;
  }

  #handle(client: Client, raw: unknown, run: () => Promise<void>): void {
    if (client.pending >= this.#limits.maxPendingRequests) {
      this.#log.warn({ userId: client.caller?.userId }, 'live: too many requests waiting');
      this.#kick(client, LIVE_MESSAGES.tooManyRequests);
      return;
    }
    client.pending += 1;
    client.chain = client.chain
      .then(run)
      .catch((error: unknown) => {
        if (error instanceof LiveError) sendException(client, error.message, error.subscriptionId);
        else {
          this.#log.error({ err: error }, 'live: request failed');
          sendException(client, LIVE_MESSAGES.internal, subscriptionIdOf(raw));
        }
      })
      .finally(() => {
        client.pending -= 1;
      });
  }

  /** Tells the client why once, then closes its socket; nothing more is queued for it. */
  #kick(client: Client, message: string): void {
    if (!this.#clients.has(client)) return;
    client.queue.close();
    client.socket.emit('exception', { message });
    client.socket.disconnect(true);
    this.#drop(client);
  }

  #endSession(sessionId: string): void {
    for (const client of this.#clients) {
      const uses =
        client.caller?.sessionId === sessionId || [...client.subs.values()].some((s) => s.caller.sessionId === sessionId);
      if (uses) this.#kick(client, LIVE_MESSAGES.revoked);
    }
  }

  #endUser(userId: string): void {
    for (const client of this.#clients) {
      const uses = client.caller?.userId === userId || [...client.subs.values()].some((s) => s.caller.userId === userId);
      if (uses) this.#kick(client, LIVE_MESSAGES.accessChanged);
    }
  }

  /** Ends the sockets of sessions that were closed while no notification could tell. */
  async #checkSessions(): Promise<void> {
    const ids = new Set<string>();
    for (const client of this.#clients) {
      if (client.caller) ids.add(client.caller.sessionId);
      for (const sub of client.subs.values()) ids.add(sub.caller.sessionId);
    }
    if (ids.size === 0) return;
    try {
      const open = await this.#openSessions([...ids]);
      for (const id of ids) if (!open.has(id)) this.#endSession(id);
    } catch (error) {
      this.#log.warn({ err: error }, 'live: session check failed');
    }
  }

  /** After the listener was lost for a while: check sessions, then send every subscription afresh. */
  #resync(): void {
    void this.#checkSessions().then(() => {
      for (const client of this.#clients) for (const sub of client.subs.values()) void this.#subscriptions.init(sub);
    });
  }

  /** A client that does not read what it asked for is dropped: it connects again for a fresh copy. */
  #fellBehind(client: Client): void {
    this.#log.warn({ userId: client.caller?.userId }, 'live: client fell behind');
    this.#dropped += 1;
    this.#kick(client, LIVE_MESSAGES.behind);
  }

  #drop(client: Client): void {
    if (!this.#clients.delete(client)) return;
    clearTimeout(client.authTimer);
    for (const sub of client.subs.values()) this.#subscriptions.remove(sub);
    client.subs.clear();
    client.queue.close();
    const userId = client.caller?.userId;
    if (userId === undefined) return;
    const left = this.#userSockets(userId) - 1;
    if (left > 0) this.#socketsByUser.set(userId, left);
    else this.#socketsByUser.delete(userId);
  }
}
