import { isEmptyFilter, matchesFilter, type NormalFilter } from '@gdb/shared/live/filter';
import type { LiveCollection, LiveProjection } from '@gdb/shared/live/live.schemas';
import { mergeProjections, projectionMode } from '@gdb/shared/live/projection';
import { changeOf, docsOf, type LiveDoc } from './codec.ts';
import type { LiveCallbacks, LiveStatus } from './live-types.ts';

// The subscribers and the server subscriptions they share (groups), and how what the server sends
// for a group reaches each of its subscribers.

/** One subscriber, as `subscribe` returned it. */
export interface Handle {
  id: string;
  collection: LiveCollection;
  filter: NormalFilter;
  key: string;
  projection: LiveProjection | undefined;
  callbacks: LiveCallbacks;
  group: Group;
}

/** One subscription on the server, shared by the handles with the same filter (or by all, when one filter is empty). */
export interface Group {
  collection: LiveCollection;
  filter: NormalFilter;
  handles: Set<Handle>;
  projection: LiveProjection;
  serverId: string | undefined;
  docs: Map<string, LiveDoc> | undefined;
  status: LiveStatus;
  message: string | undefined;
}

export interface CollectionState {
  /** The group of the empty filter: while it exists it serves every handle of the collection. */
  empty: Group | undefined;
  byFilter: Map<string, Group>;
}

export const sameProjection = (a: LiveProjection, b: LiveProjection) => JSON.stringify(a) === JSON.stringify(b);

/** True when the handle rides on its collection's empty-filter subscription and must pick its own documents. */
const rides = (h: Handle) => isEmptyFilter(h.group.filter) && !isEmptyFilter(h.filter);

/** Whether a document of the handle's group is one the handle asked for. */
export const sees = (h: Handle, doc: Readonly<Record<string, unknown>>) => !rides(h) || matchesFilter(h.filter, doc);

/** A handle's projection as its group must ask for it: a rider needs its filter's fields to pick its documents. */
function projectionOf(h: Handle): LiveProjection | undefined {
  if (!h.projection || !rides(h)) return h.projection;
  const keys = Object.keys(h.filter);
  const mode = projectionMode(h.projection);
  if (mode === 'include') return { ...h.projection, ...Object.fromEntries(keys.map((k) => [k, 1])) };
  if (mode === 'exclude') return Object.fromEntries(Object.entries(h.projection).filter(([k]) => !keys.includes(k)));
  return h.projection;
}

export const mergedOf = (group: Group) => mergeProjections([...group.handles].map(projectionOf));

/** A group not yet subscribed on the server. */
export function newGroup(collection: LiveCollection, filter: NormalFilter): Group {
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

/** Sets a group's status and tells each of its subscribers. */
export function setStatus(group: Group, status: LiveStatus, message?: string): void {
  group.status = status;
  group.message = message;
  for (const h of group.handles) h.callbacks.status?.(status, message);
}

/** A group's init: it holds these documents now, and each subscriber gets the ones it asked for. */
export function deliverInit(group: Group, data: unknown): void {
  const docs = docsOf(data);
  group.docs = new Map(docs.map((d) => [d._id, d]));
  setStatus(group, 'live');
  for (const h of group.handles) h.callbacks.init?.(docs.filter((d) => sees(h, d)));
}

/** A group's change: applied to what it holds, and told to each subscriber the document concerns. */
export function deliverChange(group: Group, data: unknown): void {
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
