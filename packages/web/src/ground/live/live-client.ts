import { filterKey, isEmptyFilter, type NormalFilter, normalizeFilter } from '@gdb/shared/live/filter';
import type { LiveCollection, LiveException, LiveProjection } from '@gdb/shared/live/live.schemas';
import { decodeEnvelope, docsOf, type LiveDoc } from './codec.ts';
import { LiveConnection } from './live-connection.ts';
import {
  type CollectionState,
  deliverChange,
  deliverInit,
  type Group,
  type Handle,
  mergedOf,
  newGroup,
  sameProjection,
  sees,
  setStatus,
} from './live-groups.ts';
import type { LiveCallbacks, LiveClientOptions, LiveRequest } from './live-types.ts';

const LIVE_CLIENT_MESSAGES = {
  unknownData: 'Live data for an unknown subscription',
  findTimeout: 'The live read timed out.',
} as const;

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

/**
 * The browser side of the live-data channel (docs/product.md §15): one socket per tab, opened with the
 * first subscription and closed when the last leaves (live-connection.ts); identical filters share one
 * server subscription, and an empty filter serves the whole collection; projections are merged
 * (live-groups.ts); after a disconnect every subscription is marked disconnected and subscribed
 * again, with a fresh init.
 */
export class LiveClient {
  readonly #options: Required<Omit<LiveClientOptions, 'logger'>> & { logger: Pick<Console, 'log' | 'warn' | 'error'> };
  readonly #handles = new Map<string, Handle>();
  readonly #collections = new Map<LiveCollection, CollectionState>();
  readonly #byServerId = new Map<string, Group>();
  readonly #finds = new Map<string, PendingFind>();
  readonly #connection: LiveConnection;
  #counter = 0;

  constructor(options: LiveClientOptions) {
    this.#options = {
      retryDelayMs: (attempt) => Math.min(1_000 * 2 ** attempt, 30_000),
      findTimeoutMs: 30_000,
      idleCloseMs: 1_000,
      logger: console,
      ...options,
    };
    this.#connection = new LiveConnection(this.#options, {
      busy: () => this.#handles.size > 0 || this.#finds.size > 0,
      connected: () => this.#connected(),
      lost: () => {
        for (const group of this.#allGroups()) setStatus(group, 'disconnected');
      },
      closed: () => {
        this.#collections.clear();
        this.#byServerId.clear();
      },
      messages: {
        init: (hex) => this.#onInit(hex),
        change: (hex) => this.#onChange(hex),
        find: (hex) => this.#onFind(hex),
        exception: (e) => this.#onException(e),
      },
    });
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
      group: newGroup(collection, filter),
    };
    this.#handles.set(handle.id, handle);
    const state = this.#state(collection);
    if (isEmptyFilter(filter) && !state.empty) {
      const empty = newGroup(collection, {});
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
      group = newGroup(collection, filter);
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
            own = newGroup(h.collection, h.filter);
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
    this.#connection.closeIfIdle();
  }

  /** Reads the matching documents once. */
  find(collection: LiveCollection, request: LiveRequest = {}): Promise<LiveDoc[]> {
    const id = this.#nextId('f');
    return new Promise<LiveDoc[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (!this.#finds.delete(id)) return;
        reject(new Error(LIVE_CLIENT_MESSAGES.findTimeout));
        this.#connection.closeIfIdle();
      }, this.#options.findTimeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#finds.delete(id);
        this.#connection.closeIfIdle();
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
      this.#connection.ensure();
      if (this.#connection.connected) this.#connection.send('find', pending.payload);
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
    return this.#connection.open;
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
    setStatus(group, 'connecting');
    this.#connection.ensure();
    if (this.#connection.connected) this.#sendSubscribe(group);
  }

  #closeGroup(group: Group): void {
    if (group.serverId === undefined) return;
    this.#byServerId.delete(group.serverId);
    if (this.#connection.connected) this.#connection.send('unsubscribe', { subscriptionId: group.serverId });
    group.serverId = undefined;
    group.docs = undefined;
  }

  #sendSubscribe(group: Group): void {
    if (group.serverId === undefined) return;
    const projection = Object.keys(group.projection).length ? group.projection : undefined;
    this.#connection.send('subscribe', {
      collectionName: group.collection,
      filter: group.filter,
      projection,
      subscriptionId: group.serverId,
    });
  }

  #allGroups(): Group[] {
    return [...this.#collections.values()].flatMap((s) => [...(s.empty ? [s.empty] : []), ...s.byFilter.values()]);
  }

  #connected(): void {
    // A new connection holds no subscription yet: forget the old ids, then subscribe afresh.
    this.#byServerId.clear();
    for (const group of this.#allGroups()) {
      group.serverId = undefined;
      if (group.handles.size > 0) this.#open(group);
    }
    for (const pending of this.#finds.values()) this.#connection.send('find', pending.payload);
  }

  #groupOf(subscriptionId: string): Group | undefined {
    const group = this.#byServerId.get(subscriptionId);
    if (!group) this.#options.logger.log(LIVE_CLIENT_MESSAGES.unknownData, subscriptionId);
    return group;
  }

  #onInit(hex: unknown): void {
    const { subscriptionId, data } = decodeEnvelope(hex);
    const group = this.#groupOf(subscriptionId);
    if (group) deliverInit(group, data);
  }

  #onChange(hex: unknown): void {
    const { subscriptionId, data } = decodeEnvelope(hex);
    const group = this.#groupOf(subscriptionId);
    if (group) deliverChange(group, data);
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
        setStatus(group, 'error', e.message);
        return;
      }
      const pending = this.#finds.get(e.subscriptionId);
      if (pending) {
        pending.reject(new Error(e.message));
        return;
      }
    }
    for (const group of this.#allGroups()) setStatus(group, 'disconnected', e.message);
  }
}
