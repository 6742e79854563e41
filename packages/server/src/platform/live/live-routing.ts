import { isLiveCollection, type LiveChange, type LiveCollection } from '@gdb/shared/live/live.schemas';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { CollectionDef } from './collections.ts';
import type { Subscriptions } from './live-subscriptions.ts';
import type { Prepared } from './live-types.ts';

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

/** What the routing needs of the hub: the collections, the subscriptions, and how to end a session's or a user's sockets. */
export interface RoutingDeps {
  collections: ReadonlyMap<LiveCollection, CollectionDef>;
  subscriptions: Subscriptions;
  log: FastifyBaseLogger;
  endSession: (sessionId: string) => void;
  endUser: (userId: string) => void;
}

/**
 * The database's notifications routed to the live channel: a session or user ended closes their
 * sockets; a row's change goes to the subscriptions it matches and may read, in the order the
 * database committed them.
 */
export class NotificationRouting {
  /** Notifications are sent on in the order the database committed them. */
  #tail: Promise<void> = Promise.resolve();

  constructor(private readonly deps: RoutingDeps) {}

  onPayload(payload: string): void {
    let n: z.infer<typeof notificationSchema>;
    try {
      n = notificationSchema.parse(JSON.parse(payload));
    } catch (error) {
      this.deps.log.warn({ err: error }, 'live: unreadable notification');
      return;
    }
    if (n.t === 'sessions' || n.t === 'users') {
      const id = String(n.id);
      this.#then(async () => (n.t === 'sessions' ? this.deps.endSession(id) : this.deps.endUser(id)));
      return;
    }
    const def = isLiveCollection(n.t) ? this.deps.collections.get(n.t) : undefined;
    if (!def || !n.op || this.deps.subscriptions.index.size === 0) return;
    if (n.rows) for (const row of n.rows) this.#dispatch(def, n.op, String(row.id), row, {});
    else this.#dispatch(def, n.op, String(n.id), n.row, n.keys ?? {});
  }

  /** Once every notification heard so far has been routed. */
  settled(): Promise<void> {
    return this.#tail;
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
      const { subscriptions } = this.deps;
      for (const sub of subscriptions.index.matching(def.name, prepared.doc)) {
        if (def.visible && (await def.visible(sub.caller, [prepared.doc])).length === 0) continue;
        subscriptions.deliver(sub, prepared);
      }
    });
  }

  /** Runs after every notification heard before it (reads for oversized rows start at once). */
  #then(step: () => Promise<void>): void {
    this.#tail = this.#tail.then(step).catch((error: unknown) => this.deps.log.error({ err: error }, 'live: dispatch failed'));
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
      if (row !== undefined) this.deps.log.warn({ collection: def.name, id }, 'live: notification row not understood');
      return undefined;
    }
    return { change: { operationType: op, documentKey, fullDocument: doc }, doc, packed: new Map() };
  }
}
