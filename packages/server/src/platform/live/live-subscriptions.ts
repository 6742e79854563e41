import { isEmptyFilter, normalizeFilter } from '@gdb/shared/live/filter';
import {
  isLiveCollection,
  LIVE_FILTER_KEYS,
  type LiveCollection,
  type LiveException,
  liveRequestSchema,
  liveUnsubscribeSchema,
} from '@gdb/shared/live/live.schemas';
import { applyProjection, projectionMode } from '@gdb/shared/live/projection';
import type { FastifyBaseLogger } from 'fastify';
import type { AuthContext, Authenticate } from '../auth/access-control.ts';
import { AppError } from '../http/errors.ts';
import type { ChangeFeed } from './change-feed.ts';
import { envelopePrefixHex, packHex } from './codec.ts';
import type { CollectionDef, LiveDoc } from './collections.ts';
import {
  type Client,
  describeIssues,
  LIVE_MESSAGES,
  LiveError,
  type LiveLimits,
  type Prepared,
  type Sub,
  subscriptionIdOf,
} from './live-types.ts';
import { SubscriptionIndex } from './subscription-index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the subscriptions need of the hub: the collections, the change feed, its limits, and its hold on clients. */
export interface SubscriptionsDeps {
  collections: ReadonlyMap<LiveCollection, CollectionDef>;
  feed: ChangeFeed;
  limits: LiveLimits;
  log: FastifyBaseLogger;
  authenticate: Authenticate;
  /** Whether the client is still connected. */
  connected: (client: Client) => boolean;
  /** Makes the caller the client's owner; false past their socket limit. */
  own: (client: Client, caller: AuthContext) => boolean;
  kick: (client: Client, message: string) => void;
}

/** Tells a client why one of its messages failed. */
export function sendException(client: Client, message: string, subscriptionId?: string): void {
  const payload: LiveException = subscriptionId === undefined ? { message } : { message, subscriptionId };
  client.queue.push('exception', payload);
}

/**
 * The live channel's finds and subscriptions: each message checked (shape, collection, filter,
 * projection, token, rights), a subscription's matching documents sent as its init, then the
 * changes routed to it, held back while its init is read.
 */
export class Subscriptions {
  readonly index = new SubscriptionIndex<Sub>();
  /** Changes sent since start. */
  delivered = 0;

  constructor(private readonly deps: SubscriptionsDeps) {}

  /** Checks a find or subscribe message: shape, collection, filter, projection, token, rights. */
  async #prepare(client: Client, raw: unknown) {
    const id = subscriptionIdOf(raw);
    const parsed = liveRequestSchema.safeParse(raw);
    if (!parsed.success) throw new LiveError(`Invalid message: ${describeIssues(parsed.error)}`, id);
    const req = parsed.data;
    const def = isLiveCollection(req.collectionName) ? this.deps.collections.get(req.collectionName) : undefined;
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
    const caller = await this.#caller(client, req.token ?? client.token, id);
    if (!(await def.mayRead(caller, filter))) throw new LiveError(LIVE_MESSAGES.notAllowed, id);
    return { id: req.subscriptionId, def, filter, projection: req.projection, caller };
  }

  /** Who a message comes from, by its token (or the socket's); the first valid one makes the socket theirs. */
  async #caller(client: Client, token: string | undefined, id: string | undefined): Promise<AuthContext> {
    if (!token) throw new LiveError(LIVE_MESSAGES.authRequired, id);
    let caller: AuthContext;
    try {
      caller = await this.deps.authenticate(token);
    } catch (error) {
      if (error instanceof AppError) throw new LiveError(error.message, id);
      throw error;
    }
    if (!this.deps.connected(client)) throw new LiveError(LIVE_MESSAGES.internal, id);
    if (!client.caller && !this.deps.own(client, caller)) {
      this.deps.kick(client, LIVE_MESSAGES.tooManySockets);
      throw new LiveError(LIVE_MESSAGES.tooManySockets, id);
    }
    client.token = token;
    return caller;
  }

  async subscribe(client: Client, raw: unknown): Promise<void> {
    const p = await this.#prepare(client, raw);
    const existing = client.subs.get(p.id);
    if (existing) this.remove(existing);
    if (client.subs.size >= this.deps.limits.maxSubscriptionsPerSocket) throw new LiveError(LIVE_MESSAGES.tooMany, p.id);
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
    this.index.add(sub);
    void this.init(sub);
  }

  async find(client: Client, raw: unknown): Promise<void> {
    const p = await this.#prepare(client, raw);
    const found = await p.def.read(p.filter, this.deps.limits.readLimit[p.def.name]);
    const docs = p.def.visible ? await p.def.visible(p.caller, found) : found;
    const data = packHex(docs.map((d) => applyProjection(d, p.projection)));
    client.queue.push('find', envelopePrefixHex(p.id) + data);
  }

  unsubscribe(client: Client, raw: unknown): void {
    const parsed = liveUnsubscribeSchema.safeParse(raw);
    if (!parsed.success) throw new LiveError(`Invalid message: ${describeIssues(parsed.error)}`, subscriptionIdOf(raw));
    const sub = client.subs.get(parsed.data.subscriptionId);
    if (sub) this.remove(sub);
  }

  remove(sub: Sub): void {
    sub.generation += 1;
    sub.buffer = [];
    this.index.remove(sub);
    if (sub.client.subs.get(sub.id) === sub) sub.client.subs.delete(sub.id);
  }

  #current(sub: Sub, generation: number): boolean {
    return sub.generation === generation && sub.client.subs.get(sub.id) === sub;
  }

  /** Sends the matching documents, then the changes heard meanwhile. */
  async init(sub: Sub): Promise<void> {
    sub.generation += 1;
    const generation = sub.generation;
    sub.live = false;
    sub.buffer = [];
    sub.missed = false;
    const { def } = sub;
    let docs: LiveDoc[];
    try {
      await this.deps.feed.start();
      docs = await def.read(sub.filter, this.deps.limits.readLimit[sub.collection]);
      if (def.visible) docs = await def.visible(sub.caller, docs);
    } catch (error) {
      if (!this.#current(sub, generation)) return;
      this.deps.log.error({ err: error, collection: sub.collection }, 'live: init failed');
      this.remove(sub);
      sendException(sub.client, LIVE_MESSAGES.internal, sub.id);
      return;
    }
    if (!this.#current(sub, generation)) return;
    const data = packHex(docs.map((d) => applyProjection(d, sub.projection)));
    sub.client.queue.push('init', sub.hexPrefix + data);
    sub.recent = new Set(docs.map((d) => d._id));
    sub.recentUntil = Date.now() + this.deps.limits.duplicateWindowMs;
    if (sub.missed) {
      void this.init(sub);
      return;
    }
    sub.live = true;
    const buffered = sub.buffer;
    sub.buffer = [];
    for (const prepared of buffered) this.deliver(sub, prepared);
  }

  /** Sends a change to a subscription, or holds it while the subscription's init is read. */
  deliver(sub: Sub, prepared: Prepared): void {
    if (!sub.live) {
      if (sub.buffer.length >= this.deps.limits.maxQueuedMessages) {
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
    if (sub.client.queue.push('change', sub.hexPrefix + hex)) this.delivered += 1;
  }
}
