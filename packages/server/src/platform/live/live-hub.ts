import type { Server as HttpServer } from 'node:http';
import { CODES } from '@gdb/shared/api/envelope';
import { isEmptyFilter, type NormalFilter, normalizeFilter } from '@gdb/shared/live/filter';
import {
  isLiveCollection,
  LIVE_FILTER_KEYS,
  LIVE_PATH,
  type LiveChange,
  type LiveCollection,
  type LiveException,
  type LiveProjection,
  liveRequestSchema,
  liveUnsubscribeSchema,
} from '@gdb/shared/live/live.schemas';
import { applyProjection, projectionMode } from '@gdb/shared/live/projection';
import type { FastifyBaseLogger } from 'fastify';
import { type DefaultEventsMap, type ExtendedError, Server, type Socket } from 'socket.io';
import { z } from 'zod';
import type { AuthContext, Authenticate } from '../auth/access-control.ts';
import type { Db } from '../db/index.ts';
import { AppError } from '../http/errors.ts';
import { type ChangeFeed, createChangeFeed } from './change-feed.ts';
import { envelopePrefixHex, packHex } from './codec.ts';
import type { CollectionDef, LiveDoc } from './collections.ts';
import { OutboundQueue } from './outbound-queue.ts';
import { SubscriptionIndex } from './subscription-index.ts';

export interface LiveLimits {
  /** Messages of any kind a busy socket may have waiting before it is dropped. */
  maxQueuedMessages: number;
  /** Characters of payload a busy socket may have waiting before it is dropped. */
  maxQueuedChars: number;
  /** Messages of one socket received and not yet answered before it is dropped. */
  maxPendingRequests: number;
  maxSubscriptionsPerSocket: number;
  /** Sockets one user may hold on this instance. */
  maxSocketsPerUser: number;
  /** How long a socket may stay open without a valid token (in its handshake or a message). */
  authTimeoutMs: number;
  /** Most documents an `init` or `find` answers (the newest ones). */
  readLimit: Record<LiveCollection, number>;
  /** How often every connected session is checked again (revoked, expired, user disabled). */
  sessionCheckMs: number;
  /** How long after an init an insert of a document that init already held is skipped. */
  duplicateWindowMs: number;
}

const DEFAULT_LIVE_LIMITS: LiveLimits = {
  maxQueuedMessages: 5_000,
  maxQueuedChars: 16 * 1024 * 1024,
  maxPendingRequests: 200,
  maxSubscriptionsPerSocket: 100,
  maxSocketsPerUser: 20,
  authTimeoutMs: 10_000,
  readLimit: { logs: 5_000, uploads: 1_000, imports: 1_000 },
  sessionCheckMs: 60_000,
  duplicateWindowMs: 10_000,
};

/** Which of these sessions are still open (not revoked, not expired, their user active); the sign-in module answers it. */
export type OpenSessions = (sessionIds: readonly string[]) => Promise<ReadonlySet<string>>;

export interface LiveHubOptions {
  db: Db;
  authenticate: Authenticate;
  openSessions: OpenSessions;
  log: FastifyBaseLogger;
  limits?: Partial<LiveLimits>;
}

export const LIVE_MESSAGES = {
  notAllowed: 'You are not allowed to do this.',
  authRequired: 'Authentication required.',
  behind: 'Too many messages are waiting for this connection; it is closed.',
  tooManyRequests: 'Too many requests are waiting on this connection; it is closed.',
  tooManySockets: 'Too many live connections are open for this user.',
  authTimeout: 'No valid token arrived in time; the connection is closed.',
  revoked: 'Your session has been revoked.',
  accessChanged: 'Your access rights have changed.',
  tooMany: 'Too many subscriptions on this connection.',
  internal: 'The server could not answer this request.',
} as const;

/** What the handshake found: nothing when it carried no token (the messages carry theirs). */
interface SocketData {
  caller: AuthContext | undefined;
  token: string | undefined;
}

type LiveSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;

interface Client {
  socket: LiveSocket;
  /** Who the socket belongs to: the first valid token it sent; it counts against that user's sockets. */
  caller: AuthContext | undefined;
  /** The token of messages that carry none. */
  token: string | undefined;
  subs: Map<string, Sub>;
  queue: OutboundQueue;
  /** Messages of one socket are handled one after the other. */
  chain: Promise<void>;
  /** Messages received and not yet answered. */
  pending: number;
  authTimer: NodeJS.Timeout | undefined;
}

interface Sub {
  id: string;
  client: Client;
  collection: LiveCollection;
  def: CollectionDef;
  filter: NormalFilter;
  projection: LiveProjection | undefined;
  projectionKey: string;
  /** Hex of the envelope up to its data. */
  hexPrefix: string;
  caller: AuthContext;
  /** False while an init is being read: changes wait in `buffer`. */
  live: boolean;
  buffer: Prepared[];
  /** The buffer overflowed during an init: read it again. */
  missed: boolean;
  generation: number;
  recent: Set<string> | undefined;
  recentUntil: number;
}

/** A change ready to send, packed once per projection. */
interface Prepared {
  change: LiveChange<LiveDoc>;
  doc: LiveDoc;
  /** Hex of the packed change, by projection. */
  packed: Map<string, string>;
}

class LiveError extends Error {
  readonly subscriptionId: string | undefined;
  constructor(message: string, subscriptionId: string | undefined) {
    super(message);
    this.subscriptionId = subscriptionId;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A row's change (`id`, with its `row` or only its routing `keys`), or the rows one statement inserted (`rows`). */
const notificationSchema = z
  .object({
    t: z.string(),
    op: z.enum(['insert', 'update', 'delete']).optional(),
    id: z.union([z.string(), z.number()]).optional(),
    row: z.unknown().optional(),
    keys: z.record(z.string(), z.unknown()).optional(),
    rows: z.array(z.looseObject({ id: z.union([z.string(), z.number()]) })).optional(),
  })
  .refine((n) => n.id !== undefined || n.rows !== undefined, { message: 'A notification names a row or carries rows.' });

function subscriptionIdOf(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null || !('subscriptionId' in raw)) return undefined;
  return typeof raw.subscriptionId === 'string' ? raw.subscriptionId.slice(0, 100) : undefined;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

function connectError(message: string, code: number): ExtendedError {
  return Object.assign(new Error(message), { data: { code } });
}

/**
 * The live-data hub: socket.io on the API's HTTP server at /data-prep/v1 (websocket only).
 * Clients `find`, `subscribe` and `unsubscribe`; the hub answers `init`, `change` and `find` as
 * hex MessagePack of `{subscriptionId, data}`, and `exception` with a message. Changes come from
 * database notifications, so every instance serves every subscriber.
 */
export class LiveHub {
  readonly #io: Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>;
  readonly #openSessions: OpenSessions;
  readonly #authenticate: Authenticate;
  readonly #log: FastifyBaseLogger;
  readonly #limits: LiveLimits;
  /** The collections the modules registered, by name. */
  readonly #collections = new Map<LiveCollection, CollectionDef>();
  readonly #feed: ChangeFeed;
  readonly #index = new SubscriptionIndex<Sub>();
  readonly #clients = new Set<Client>();
  readonly #socketsByUser = new Map<string, number>();
  readonly #timer: NodeJS.Timeout;
  /** Notifications are sent on in the order the database committed them. */
  #tail: Promise<void> = Promise.resolve();
  #delivered = 0;
  #dropped = 0;

  constructor(server: HttpServer, options: LiveHubOptions) {
    this.#openSessions = options.openSessions;
    this.#authenticate = options.authenticate;
    this.#log = options.log;
    this.#limits = { ...DEFAULT_LIVE_LIMITS, ...options.limits };
    this.#feed = createChangeFeed(
      options.db,
      { onPayload: (payload) => this.#onPayload(payload), onResync: () => this.#resync() },
      options.log,
    );
    this.#io = new Server<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, SocketData>(server, {
      path: LIVE_PATH,
      transports: ['websocket'],
      serveClient: false,
      maxHttpBufferSize: 64 * 1024,
    });
    this.#io.use((socket, next) => this.#handshake(socket, next));
    this.#io.on('connection', (socket) => this.#connected(socket));
    this.#timer = setInterval(() => void this.#checkSessions(), this.#limits.sessionCheckMs);
    this.#timer.unref();
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
      subscriptions: this.#index.size,
      queued,
      queuedChars,
      behind: this.#dropped,
      delivered: this.#delivered,
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
    await this.#tail.catch(() => {});
  }

  /** A handshake token is optional (docs/product.md §15.2 puts it in the messages); one that is sent must be valid. */
  #handshake(socket: LiveSocket, next: (err?: ExtendedError) => void): void {
    const token: unknown = socket.handshake.auth.token;
    socket.data.caller = undefined;
    socket.data.token = undefined;
    if (token === undefined || token === null || token === '') {
      next();
      return;
    }
    if (typeof token !== 'string') {
      next(connectError(LIVE_MESSAGES.authRequired, CODES.badToken));
      return;
    }
    this.#authenticate(token).then(
      (caller) => {
        if (this.#userSockets(caller.userId) >= this.#limits.maxSocketsPerUser) {
          next(connectError(LIVE_MESSAGES.tooManySockets, CODES.tooMany));
          return;
        }
        socket.data.caller = caller;
        socket.data.token = token;
        next();
      },
      (error: unknown) =>
        next(
          error instanceof AppError
            ? connectError(error.message, error.code)
            : connectError(LIVE_MESSAGES.internal, CODES.internal),
        ),
    );
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
    socket.on('subscribe', (raw) => this.#handle(client, raw, () => this.#subscribe(client, raw)));
    socket.on('find', (raw) => this.#handle(client, raw, () => this.#find(client, raw)));
    socket.on('unsubscribe', (raw) => this.#handle(client, raw, async () => this.#unsubscribe(client, raw)));
    socket.onAny((event: string, raw: unknown) => {
      if (event !== 'subscribe' && event !== 'find' && event !== 'unsubscribe') {
        this.#exception(client, `Unknown event ${String(event).slice(0, 50)}.`, subscriptionIdOf(raw));
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
        if (error instanceof LiveError) this.#exception(client, error.message, error.subscriptionId);
        else {
          this.#log.error({ err: error }, 'live: request failed');
          this.#exception(client, LIVE_MESSAGES.internal, subscriptionIdOf(raw));
        }
      })
      .finally(() => {
        client.pending -= 1;
      });
  }

  #exception(client: Client, message: string, subscriptionId?: string): void {
    const payload: LiveException = subscriptionId === undefined ? { message } : { message, subscriptionId };
    client.queue.push('exception', payload);
  }

  /** Checks a find or subscribe message: shape, collection, filter, projection, token, rights. */
  async #prepare(client: Client, raw: unknown) {
    const id = subscriptionIdOf(raw);
    const parsed = liveRequestSchema.safeParse(raw);
    if (!parsed.success) throw new LiveError(`Invalid message: ${describeIssues(parsed.error)}`, id);
    const req = parsed.data;
    const def = isLiveCollection(req.collectionName) ? this.#collections.get(req.collectionName) : undefined;
    if (!def) throw new LiveError(`Unknown collection ${req.collectionName}.`, id);
    const filter = normalizeFilter(req.filter);
    const keys = LIVE_FILTER_KEYS[def.name];
    for (const [key, values] of Object.entries(filter)) {
      if (!keys.includes(key)) throw new LiveError(`Cannot filter ${def.name} on ${key}.`, id);
      if (def.uuidKeys.includes(key) && !values.every((v) => UUID.test(v))) {
        throw new LiveError(`Invalid value for ${key} in the filter.`, id);
      }
    }
    if (def.requiresFilter && isEmptyFilter(filter)) {
      throw new LiveError(`A filter on ${keys.join(' or ')} is required for ${def.name}.`, id);
    }
    if (projectionMode(req.projection) === 'mixed') {
      throw new LiveError('A projection either includes fields or excludes them.', id);
    }
    const token = req.token ?? client.token;
    if (!token) throw new LiveError(LIVE_MESSAGES.authRequired, id);
    let caller: AuthContext;
    try {
      caller = await this.#authenticate(token);
    } catch (error) {
      if (error instanceof AppError) throw new LiveError(error.message, id);
      throw error;
    }
    if (!this.#clients.has(client)) throw new LiveError(LIVE_MESSAGES.internal, id);
    if (!client.caller && !this.#own(client, caller)) {
      this.#kick(client, LIVE_MESSAGES.tooManySockets);
      throw new LiveError(LIVE_MESSAGES.tooManySockets, id);
    }
    client.token = token;
    if (!(await def.mayRead(caller, filter))) throw new LiveError(LIVE_MESSAGES.notAllowed, id);
    return { id: req.subscriptionId, def, filter, projection: req.projection, caller };
  }

  async #subscribe(client: Client, raw: unknown): Promise<void> {
    const p = await this.#prepare(client, raw);
    const existing = client.subs.get(p.id);
    if (existing) this.#remove(existing);
    if (client.subs.size >= this.#limits.maxSubscriptionsPerSocket) throw new LiveError(LIVE_MESSAGES.tooMany, p.id);
    const sub: Sub = {
      id: p.id,
      client,
      collection: p.def.name,
      def: p.def,
      filter: p.filter,
      projection: p.projection,
      projectionKey: JSON.stringify(p.projection ?? {}),
      hexPrefix: envelopePrefixHex(p.id),
      caller: p.caller,
      live: false,
      buffer: [],
      missed: false,
      generation: 0,
      recent: undefined,
      recentUntil: 0,
    };
    client.subs.set(sub.id, sub);
    this.#index.add(sub);
    void this.#init(sub);
  }

  async #find(client: Client, raw: unknown): Promise<void> {
    const p = await this.#prepare(client, raw);
    const found = await p.def.read(p.filter, this.#limits.readLimit[p.def.name]);
    const docs = p.def.visible ? await p.def.visible(p.caller, found) : found;
    const data = packHex(docs.map((d) => applyProjection(d, p.projection)));
    client.queue.push('find', envelopePrefixHex(p.id) + data);
  }

  #unsubscribe(client: Client, raw: unknown): void {
    const parsed = liveUnsubscribeSchema.safeParse(raw);
    if (!parsed.success) throw new LiveError(`Invalid message: ${describeIssues(parsed.error)}`, subscriptionIdOf(raw));
    const sub = client.subs.get(parsed.data.subscriptionId);
    if (sub) this.#remove(sub);
  }

  #remove(sub: Sub): void {
    sub.generation += 1;
    sub.buffer = [];
    this.#index.remove(sub);
    if (sub.client.subs.get(sub.id) === sub) sub.client.subs.delete(sub.id);
  }

  #current(sub: Sub, generation: number): boolean {
    return sub.generation === generation && sub.client.subs.get(sub.id) === sub;
  }

  /** Sends the matching documents, then the changes heard meanwhile. */
  async #init(sub: Sub): Promise<void> {
    sub.generation += 1;
    const generation = sub.generation;
    sub.live = false;
    sub.buffer = [];
    sub.missed = false;
    const { def } = sub;
    let docs: LiveDoc[];
    try {
      await this.#feed.start();
      docs = await def.read(sub.filter, this.#limits.readLimit[sub.collection]);
      if (def.visible) docs = await def.visible(sub.caller, docs);
    } catch (error) {
      if (!this.#current(sub, generation)) return;
      this.#log.error({ err: error, collection: sub.collection }, 'live: init failed');
      this.#remove(sub);
      this.#exception(sub.client, LIVE_MESSAGES.internal, sub.id);
      return;
    }
    if (!this.#current(sub, generation)) return;
    const data = packHex(docs.map((d) => applyProjection(d, sub.projection)));
    sub.client.queue.push('init', sub.hexPrefix + data);
    sub.recent = new Set(docs.map((d) => d._id));
    sub.recentUntil = Date.now() + this.#limits.duplicateWindowMs;
    if (sub.missed) {
      void this.#init(sub);
      return;
    }
    sub.live = true;
    const buffered = sub.buffer;
    sub.buffer = [];
    for (const prepared of buffered) this.#deliver(sub, prepared);
  }

  #deliver(sub: Sub, prepared: Prepared): void {
    if (!sub.live) {
      if (sub.buffer.length >= this.#limits.maxQueuedMessages) {
        sub.missed = true;
        sub.buffer = [];
      } else if (!sub.missed) sub.buffer.push(prepared);
      return;
    }
    const { change } = prepared;
    if (sub.recent) {
      // The init may already hold a document whose insert notification arrives just after it.
      if (Date.now() > sub.recentUntil) sub.recent = undefined;
      else if (change.operationType === 'insert' && sub.recent.has(change.documentKey._id)) return;
    }
    let hex = prepared.packed.get(sub.projectionKey);
    if (hex === undefined) {
      const fullDocument = change.fullDocument && applyProjection(change.fullDocument, sub.projection);
      hex = packHex({ ...change, fullDocument });
      prepared.packed.set(sub.projectionKey, hex);
    }
    if (sub.client.queue.push('change', sub.hexPrefix + hex)) this.#delivered += 1;
  }

  #onPayload(payload: string): void {
    let parsed: z.infer<typeof notificationSchema>;
    try {
      parsed = notificationSchema.parse(JSON.parse(payload));
    } catch (error) {
      this.#log.warn({ err: error }, 'live: unreadable notification');
      return;
    }
    const n = parsed;
    if (n.t === 'sessions' || n.t === 'users') {
      const id = String(n.id);
      this.#then(async () => (n.t === 'sessions' ? this.#endSession(id) : this.#endUser(id)));
      return;
    }
    const def = isLiveCollection(n.t) ? this.#collections.get(n.t) : undefined;
    if (!def || !n.op || this.#index.size === 0) return;
    if (n.rows) for (const row of n.rows) this.#dispatch(def, n.op, String(row.id), row, {});
    else this.#dispatch(def, n.op, String(n.id), n.row, n.keys ?? {});
  }

  /** Sends one row's change to the subscriptions it matches, after every change heard before it. */
  #dispatch(
    def: CollectionDef,
    op: LiveChange['operationType'],
    id: string,
    row: unknown,
    keys: Readonly<Record<string, unknown>>,
  ): void {
    const resolving = this.#resolve(def, op, id, row, keys);
    this.#then(async () => {
      const prepared = await resolving;
      if (!prepared) return;
      for (const sub of this.#index.matching(def.name, prepared.doc)) {
        if (def.visible && (await def.visible(sub.caller, [prepared.doc])).length === 0) continue;
        this.#deliver(sub, prepared);
      }
    });
  }

  /** Runs after every notification heard before it (reads for oversized rows start at once). */
  #then(step: () => Promise<void>): void {
    this.#tail = this.#tail.then(step).catch((error: unknown) => this.#log.error({ err: error }, 'live: dispatch failed'));
  }

  async #resolve(
    def: CollectionDef,
    op: LiveChange['operationType'],
    id: string,
    row: unknown,
    keys: Readonly<Record<string, unknown>>,
  ): Promise<Prepared | undefined> {
    const documentKey = { _id: id };
    if (op === 'delete') {
      return { change: { operationType: op, documentKey, fullDocument: null }, doc: def.fromKeys(id, keys), packed: new Map() };
    }
    const doc = row === undefined ? await def.byId(id) : def.fromRow(row);
    if (!doc) {
      if (row !== undefined) this.#log.warn({ collection: def.name, id }, 'live: notification row not understood');
      return undefined;
    }
    return { change: { operationType: op, documentKey, fullDocument: doc }, doc, packed: new Map() };
  }

  /** Tells the client why once, then closes its socket; nothing more is queued for it. */
  #kick(client: Client, message: string): void {
    if (!this.#clients.has(client)) return;
    client.queue.close();
    client.socket.emit('exception', { message } satisfies LiveException);
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
      for (const client of this.#clients) for (const sub of client.subs.values()) void this.#init(sub);
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
    for (const sub of client.subs.values()) this.#remove(sub);
    client.subs.clear();
    client.queue.close();
    const userId = client.caller?.userId;
    if (userId === undefined) return;
    const left = this.#userSockets(userId) - 1;
    if (left > 0) this.#socketsByUser.set(userId, left);
    else this.#socketsByUser.delete(userId);
  }
}
