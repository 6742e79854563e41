import { filterKey, isEmptyFilter, matchesFilter, type NormalFilter, normalizeFilter } from '@gdb/shared/live/filter';
import type { LiveCollection, LiveException, LiveFilter, LiveProjection } from '@gdb/shared/live/live.schemas';
import { mergeProjections, projectionMode } from '@gdb/shared/live/projection';
import { changeOf, decodeEnvelope, docsOf, type LiveDoc } from './codec.ts';

/** Where a subscription stands: waiting for its init, receiving changes, cut off, or refused. */
export type LiveStatus = 'connecting' | 'live' | 'disconnected' | 'error';

/** What a subscriber hears. `init` replaces everything it had: it comes first and again after each reconnect. */
export interface LiveCallbacks {
  init?(docs: LiveDoc[]): void;
  insert?(doc: LiveDoc): void;
  update?(doc: LiveDoc): void;
  delete?(id: string, doc: LiveDoc | undefined): void;
  status?(status: LiveStatus, message?: string): void;
}

export interface LiveRequest {
  filter?: LiveFilter | undefined;
  projection?: LiveProjection | undefined;
}

/** The part of a socket.io client socket the live client uses. */
export interface LiveSocket {
  readonly connected: boolean;
  /** False once the socket will not reconnect by itself. */
  readonly active: boolean;
  connect(): void;
  disconnect(): void;
  emit(event: string, payload: unknown): void;
  on(event: string, listener: (arg: unknown) => void): void;
}

/** Builds the socket; `auth` hands socket.io the token at each (re)connection. */
export type LiveSocketFactory = (auth: (cb: (data: Record<string, string>) => void) => void) => LiveSocket;

export type TokenGetter = () => string | null | undefined | Promise<string | null | undefined>;

export interface LiveClientOptions {
  getToken: TokenGetter;
  createSocket: LiveSocketFactory;
  logger?: Pick<Console, 'log' | 'warn' | 'error'>;
  /** Delay before connecting again after the server refused or closed the connection. */
  retryDelayMs?: (attempt: number) => number;
  findTimeoutMs?: number;
  /** How long the socket stays open once nothing uses it, so switching subscriptions does not reconnect. */
  idleCloseMs?: number;
}

const LIVE_CLIENT_MESSAGES = {
  unknownData: 'Live data for an unknown subscription',
  findTimeout: 'The live read timed out.',
} as const;

/** One subscriber, as `subscribe` returned it. */
interface Handle {
  id: string;
  collection: LiveCollection;
  filter: NormalFilter;
  key: string;
  projection: LiveProjection | undefined;
  callbacks: LiveCallbacks;
  group: Group;
}

/** One subscription on the server, shared by the handles with the same filter (or by all, when one filter is empty). */
interface Group {
  collection: LiveCollection;
  filter: NormalFilter;
  handles: Set<Handle>;
  projection: LiveProjection;
  serverId: string | undefined;
  docs: Map<string, LiveDoc> | undefined;
  status: LiveStatus;
  message: string | undefined;
}

interface CollectionState {
  /** The group of the empty filter: while it exists it serves every handle of the collection. */
  empty: Group | undefined;
  byFilter: Map<string, Group>;
}

interface PendingFind {
  payload: {
    collectionName: LiveCollection;
    filter: NormalFilter;
    projection: LiveProjection | undefined;
    subscriptionId: string;
  };
  resolve(docs: LiveDoc[]): void;
  reject(error: Error): void;
}

const sameProjection = (a: LiveProjection, b: LiveProjection) => JSON.stringify(a) === JSON.stringify(b);

/** True when the handle rides on its collection's empty-filter subscription and must pick its own documents. */
const rides = (h: Handle) => isEmptyFilter(h.group.filter) && !isEmptyFilter(h.filter);

/** Whether a document of the handle's group is one the handle asked for. */
const sees = (h: Handle, doc: Readonly<Record<string, unknown>>) => !rides(h) || matchesFilter(h.filter, doc);

/** A handle's projection as its group must ask for it: a rider needs its filter's fields to pick its documents. */
function projectionOf(h: Handle): LiveProjection | undefined {
  if (!h.projection || !rides(h)) return h.projection;
  const keys = Object.keys(h.filter);
  const mode = projectionMode(h.projection);
  if (mode === 'include') return { ...h.projection, ...Object.fromEntries(keys.map((k) => [k, 1])) };
  if (mode === 'exclude') return Object.fromEntries(Object.entries(h.projection).filter(([k]) => !keys.includes(k)));
  return h.projection;
}

const mergedOf = (group: Group) => mergeProjections([...group.handles].map(projectionOf));

/**
 * The browser side of the live-data channel (docs/product.md §15): one socket per tab, opened with the
 * first subscription and closed when the last leaves; identical filters share one server
 * subscription, and an empty filter serves the whole collection; projections are merged; after a
 * disconnect every subscription is marked disconnected and subscribed again, with a fresh init.
 */
export class LiveClient {
  readonly #options: Required<Omit<LiveClientOptions, 'logger'>> & { logger: Pick<Console, 'log' | 'warn' | 'error'> };
  readonly #handles = new Map<string, Handle>();
  readonly #collections = new Map<LiveCollection, CollectionState>();
  readonly #byServerId = new Map<string, Group>();
  readonly #finds = new Map<string, PendingFind>();
  #socket: LiveSocket | undefined;
  #sending: Promise<void> = Promise.resolve();
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #retries = 0;
  #counter = 0;

  constructor(options: LiveClientOptions) {
    this.#options = {
      retryDelayMs: (attempt) => Math.min(1_000 * 2 ** attempt, 30_000),
      findTimeoutMs: 30_000,
      idleCloseMs: 1_000,
      logger: console,
      ...options,
    };
  }

  /** Starts a subscription and answers its id (for `unsubscribe`). */
  subscribe(collection: LiveCollection, request: LiveRequest, callbacks: LiveCallbacks): string {
    const filter = normalizeFilter(request.filter);
    const handle: Handle = {
      id: this.#nextId('h'),
      collection,
      filter,
      key: filterKey(filter),
      projection: request.projection,
      callbacks,
      // Set by #attach right below.
      group: this.#newGroup(collection, filter),
    };
    this.#handles.set(handle.id, handle);
    const state = this.#state(collection);
    if (isEmptyFilter(filter) && !state.empty) {
      const empty = this.#newGroup(collection, {});
      for (const group of state.byFilter.values()) {
        this.#closeGroup(group);
        for (const h of group.handles) {
          empty.handles.add(h);
          h.group = empty;
        }
      }
      state.byFilter.clear();
      state.empty = empty;
    }
    let group = state.empty ?? state.byFilter.get(handle.key);
    if (!group) {
      group = this.#newGroup(collection, filter);
      state.byFilter.set(handle.key, group);
    }
    this.#attach(handle, group);
    return handle.id;
  }

  /** Ends a subscription; throws 'Cannot find filter with id {id}' for an id it does not hold. */
  unsubscribe(id: string): void {
    const handle = this.#handles.get(id);
    if (!handle) throw new Error(`Cannot find filter with id ${id}`);
    this.#handles.delete(id);
    const group = handle.group;
    group.handles.delete(handle);
    const state = this.#state(handle.collection);
    if (group === state.empty) {
      if (![...group.handles].some((h) => isEmptyFilter(h.filter))) {
        // The last empty filter left: the others get their own subscriptions again.
        this.#closeGroup(group);
        state.empty = undefined;
        for (const h of group.handles) {
          let own = state.byFilter.get(h.key);
          if (!own) {
            own = this.#newGroup(h.collection, h.filter);
            state.byFilter.set(h.key, own);
          }
          own.handles.add(h);
          h.group = own;
        }
        for (const own of state.byFilter.values()) {
          own.projection = mergedOf(own);
          this.#open(own);
        }
      }
    } else if (group.handles.size === 0) {
      this.#closeGroup(group);
      state.byFilter.delete(handle.key);
    }
    this.#closeIfIdle();
  }

  /** Reads the matching documents once. */
  find(collection: LiveCollection, request: LiveRequest = {}): Promise<LiveDoc[]> {
    const id = this.#nextId('f');
    return new Promise<LiveDoc[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.#finds.delete(id)) return;
        reject(new Error(LIVE_CLIENT_MESSAGES.findTimeout));
        this.#closeIfIdle();
      }, this.#options.findTimeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#finds.delete(id);
        this.#closeIfIdle();
      };
      const pending: PendingFind = {
        payload: {
          collectionName: collection,
          filter: normalizeFilter(request.filter),
          projection: request.projection,
          subscriptionId: id,
        },
        resolve: (docs) => {
          done();
          resolve(docs);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      this.#finds.set(id, pending);
      this.#ensureSocket();
      if (this.#socket?.connected) this.#send('find', pending.payload);
    });
  }

  /** The subscriptions held on the server: what the socket carries right now. */
  serverSubscriptions(): { collection: LiveCollection; filter: NormalFilter; projection: LiveProjection; subscribers: number }[] {
    const out = [];
    for (const group of this.#byServerId.values()) {
      out.push({
        collection: group.collection,
        filter: group.filter,
        projection: group.projection,
        subscribers: group.handles.size,
      });
    }
    return out;
  }

  /** True while the tab's socket exists. */
  get open(): boolean {
    return this.#socket !== undefined;
  }

  #nextId(prefix: string): string {
    this.#counter += 1;
    return `${prefix}-${this.#counter}-${Math.random().toString(36).slice(2, 8)}`;
  }

  #state(collection: LiveCollection): CollectionState {
    let state = this.#collections.get(collection);
    if (!state) {
      state = { empty: undefined, byFilter: new Map() };
      this.#collections.set(collection, state);
    }
    return state;
  }

  #newGroup(collection: LiveCollection, filter: NormalFilter): Group {
    return {
      collection,
      filter,
      handles: new Set(),
      projection: {},
      serverId: undefined,
      docs: undefined,
      status: 'connecting',
      message: undefined,
    };
  }

  /** Adds a handle to a group: opens it, widens its projection, or replays what it holds. */
  #attach(handle: Handle, group: Group): void {
    group.handles.add(handle);
    handle.group = group;
    const merged = mergedOf(group);
    if (group.serverId === undefined || !sameProjection(merged, group.projection)) {
      group.projection = merged;
      this.#open(group);
      return;
    }
    handle.callbacks.status?.(group.status, group.message);
    if (group.docs) handle.callbacks.init?.([...group.docs.values()].filter((d) => sees(handle, d)));
  }

  /** (Re)subscribes a group on the server under a new id: its handles get a fresh init. */
  #open(group: Group): void {
    if (group.serverId !== undefined) this.#closeGroup(group);
    group.serverId = this.#nextId('s');
    group.docs = undefined;
    this.#byServerId.set(group.serverId, group);
    this.#setStatus(group, 'connecting');
    this.#ensureSocket();
    if (this.#socket?.connected) this.#sendSubscribe(group);
  }

  #closeGroup(group: Group): void {
    if (group.serverId === undefined) return;
    this.#byServerId.delete(group.serverId);
    if (this.#socket?.connected) this.#send('unsubscribe', { subscriptionId: group.serverId });
    group.serverId = undefined;
    group.docs = undefined;
  }

  #sendSubscribe(group: Group): void {
    if (group.serverId === undefined) return;
    const projection = Object.keys(group.projection).length ? group.projection : undefined;
    this.#send('subscribe', {
      collectionName: group.collection,
      filter: group.filter,
      projection,
      subscriptionId: group.serverId,
    });
  }

  #setStatus(group: Group, status: LiveStatus, message?: string): void {
    group.status = status;
    group.message = message;
    for (const h of group.handles) h.callbacks.status?.(status, message);
  }

  #allGroups(): Group[] {
    return [...this.#collections.values()].flatMap((s) => [...(s.empty ? [s.empty] : []), ...s.byFilter.values()]);
  }

  /** Sends in order, each message with the current token; a message for a socket gone or down is dropped. */
  #send(event: string, payload: object): void {
    const socket = this.#socket;
    this.#sending = this.#sending
      .then(async () => {
        const token = await this.#options.getToken();
        if (socket !== this.#socket || !socket?.connected) return;
        socket.emit(event, token ? { ...payload, token } : payload);
      })
      .catch((error: unknown) => this.#options.logger.error(error));
  }

  #ensureSocket(): void {
    if (this.#socket) return;
    const socket = this.#options.createSocket((cb) => {
      Promise.resolve(this.#options.getToken()).then(
        (token) => cb(token ? { token } : {}),
        () => cb({}),
      );
    });
    this.#socket = socket;
    const on = (event: string, handler: (arg: unknown) => void) =>
      socket.on(event, (arg) => {
        if (socket !== this.#socket) return;
        try {
          handler(arg);
        } catch (error) {
          this.#options.logger.error(error);
        }
      });
    on('connect', () => this.#connected());
    on('disconnect', (reason) => this.#lost(reason === 'io server disconnect'));
    on('connect_error', (error) => {
      this.#options.logger.error(error);
      this.#lost(!socket.active);
    });
    on('init', (hex) => this.#onInit(hex));
    on('change', (hex) => this.#onChange(hex));
    on('find', (hex) => this.#onFind(hex));
    on('exception', (e) => this.#onException(e));
    socket.connect();
  }

  #connected(): void {
    this.#retries = 0;
    // A new connection holds no subscription yet: forget the old ids, then subscribe afresh.
    this.#byServerId.clear();
    for (const group of this.#allGroups()) {
      group.serverId = undefined;
      if (group.handles.size > 0) this.#open(group);
    }
    for (const pending of this.#finds.values()) this.#send('find', pending.payload);
  }

  /** The connection dropped or was refused: every subscription is disconnected until it is back. */
  #lost(retryByHand: boolean): void {
    for (const group of this.#allGroups()) this.#setStatus(group, 'disconnected');
    if (!retryByHand || this.#retryTimer) return;
    const delay = this.#options.retryDelayMs(this.#retries);
    this.#retries += 1;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (this.#socket && !this.#socket.connected && (this.#handles.size > 0 || this.#finds.size > 0)) this.#socket.connect();
    }, delay);
  }

  #closeIfIdle(): void {
    if (this.#handles.size > 0 || this.#finds.size > 0 || !this.#socket || this.#idleTimer) return;
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      this.#closeNow();
    }, this.#options.idleCloseMs);
  }

  #closeNow(): void {
    if (this.#handles.size > 0 || this.#finds.size > 0 || !this.#socket) return;
    const socket = this.#socket;
    this.#socket = undefined;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#collections.clear();
    this.#byServerId.clear();
    socket.disconnect();
  }

  #groupOf(subscriptionId: string): Group | undefined {
    const group = this.#byServerId.get(subscriptionId);
    if (!group) this.#options.logger.log(LIVE_CLIENT_MESSAGES.unknownData, subscriptionId);
    return group;
  }

  #onInit(hex: unknown): void {
    const { subscriptionId, data } = decodeEnvelope(hex);
    const group = this.#groupOf(subscriptionId);
    if (!group) return;
    const docs = docsOf(data);
    group.docs = new Map(docs.map((d) => [d._id, d]));
    this.#setStatus(group, 'live');
    for (const h of group.handles) h.callbacks.init?.(docs.filter((d) => sees(h, d)));
  }

  #onChange(hex: unknown): void {
    const { subscriptionId, data } = decodeEnvelope(hex);
    const group = this.#groupOf(subscriptionId);
    if (!group) return;
    const change = changeOf(data);
    const id = change.documentKey._id;
    group.docs ??= new Map();
    const previous = group.docs.get(id);
    if (change.operationType === 'delete') {
      group.docs.delete(id);
      const seen = previous ?? { _id: id };
      for (const h of group.handles) if (sees(h, seen)) h.callbacks.delete?.(id, previous);
      return;
    }
    const doc = change.fullDocument;
    if (!doc) return;
    group.docs.set(id, doc);
    // An insert of a document the init already held (it can arrive just after) is an update.
    const isNew = change.operationType === 'insert' && !previous;
    for (const h of group.handles) {
      if (!sees(h, doc)) continue;
      if (isNew) h.callbacks.insert?.(doc);
      else h.callbacks.update?.(doc);
    }
  }

  #onFind(hex: unknown): void {
    const { subscriptionId, data } = decodeEnvelope(hex);
    const pending = this.#finds.get(subscriptionId);
    if (!pending) {
      this.#options.logger.log(LIVE_CLIENT_MESSAGES.unknownData, subscriptionId);
      return;
    }
    pending.resolve(docsOf(data));
  }

  #onException(raw: unknown): void {
    const e: LiveException =
      typeof raw === 'object' && raw !== null && 'message' in raw && typeof raw.message === 'string'
        ? {
            message: raw.message,
            ...('subscriptionId' in raw && typeof raw.subscriptionId === 'string' ? { subscriptionId: raw.subscriptionId } : {}),
          }
        : { message: String(raw) };
    this.#options.logger.error('Live exception:', e.message);
    if (e.subscriptionId !== undefined) {
      const group = this.#byServerId.get(e.subscriptionId);
      if (group) {
        this.#setStatus(group, 'error', e.message);
        return;
      }
      const pending = this.#finds.get(e.subscriptionId);
      if (pending) {
        pending.reject(new Error(e.message));
        return;
      }
    }
    for (const group of this.#allGroups()) this.#setStatus(group, 'disconnected', e.message);
  }
}
