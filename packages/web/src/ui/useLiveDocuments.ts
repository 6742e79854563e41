import { filterKey } from '@gdb/shared/live/filter';
import type { LiveCollection, LiveFilter, LiveProjection } from '@gdb/shared/live/live.schemas';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import type { LiveDoc } from '../ground/live/codec.ts';
import { useLiveClient } from '../ground/live/LiveProvider.tsx';
import type { LiveStatus } from '../ground/live/live-types.ts';

export interface LiveDocumentsState<T> {
  /** The documents in the order they came: the init's (oldest first), then each insert. */
  docs: T[];
  byId: ReadonlyMap<string, T>;
  /** 'idle' while there is nothing to follow. */
  status: LiveStatus | 'idle';
  /** Why the subscription was refused or cut, when the server said. */
  message: string | undefined;
}

type Action<T> =
  | { type: 'reset'; status: LiveStatus | 'idle' }
  | { type: 'init'; docs: T[] }
  | { type: 'insert'; doc: T }
  | { type: 'update'; doc: T }
  | { type: 'delete'; id: string }
  | { type: 'status'; status: LiveStatus; message: string | undefined };

interface State<T> {
  ids: string[];
  byId: Map<string, T>;
  status: LiveStatus | 'idle';
  message: string | undefined;
}

function apply<T extends { _id: string }>(state: State<T>, actions: Action<T>[]): State<T> {
  let { ids, byId, status, message } = state;
  let copied = false;
  const own = () => {
    if (copied) return;
    ids = [...ids];
    byId = new Map(byId);
    copied = true;
  };
  for (const a of actions) {
    switch (a.type) {
      case 'reset':
        ids = [];
        byId = new Map();
        copied = true;
        status = a.status;
        message = undefined;
        break;
      case 'init':
        ids = a.docs.map((d) => d._id);
        byId = new Map(a.docs.map((d) => [d._id, d]));
        copied = true;
        break;
      case 'insert':
      case 'update':
        own();
        if (!byId.has(a.doc._id)) ids.push(a.doc._id);
        byId.set(a.doc._id, a.doc);
        break;
      case 'delete':
        if (!byId.has(a.id)) break;
        own();
        byId.delete(a.id);
        ids = ids.filter((id) => id !== a.id);
        break;
      case 'status':
        status = a.status;
        message = a.message;
        break;
    }
  }
  return { ids, byId, status, message };
}

function initial<T>(): State<T> {
  return { ids: [], byId: new Map<string, T>(), status: 'idle', message: undefined };
}

export interface LiveDocumentsOptions<T> {
  projection?: LiveProjection;
  /** Called for each document inserted after the init (not for the init's). */
  onInsert?: (doc: T) => void;
}

/**
 * Follows the documents of a collection that match a filter (null: nothing to follow). Changing
 * the filter cancels the previous subscription. Changes that arrive together are applied in one
 * render.
 */
export function useLiveDocuments<T extends { _id: string }>(
  collection: LiveCollection,
  filter: LiveFilter | null,
  parse: (doc: LiveDoc) => T | undefined,
  options: LiveDocumentsOptions<T> = {},
): LiveDocumentsState<T> {
  const client = useLiveClient();
  const [state, dispatch] = useReducer(apply<T>, undefined, initial<T>);
  const latest = useRef({ filter, parse, options });
  latest.current = { filter, parse, options };
  const key = filter ? `${collection}|${filterKey(filter)}|${JSON.stringify(options.projection ?? {})}` : null;

  useEffect(() => {
    const { filter: current, options: opts } = latest.current;
    if (key === null || !current) {
      dispatch([{ type: 'reset', status: 'idle' }]);
      return;
    }
    let pending: Action<T>[] = [{ type: 'reset', status: 'connecting' }];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const actions = pending;
      pending = [];
      if (actions.length) dispatch(actions);
    };
    const push = (action: Action<T>) => {
      pending.push(action);
      timer ??= setTimeout(flush, 0);
    };
    flush();
    const read = (doc: LiveDoc) => latest.current.parse(doc);
    const id = client.subscribe(
      collection,
      { filter: current, projection: opts.projection },
      {
        init: (docs) => push({ type: 'init', docs: docs.flatMap((d) => read(d) ?? []) }),
        insert: (d) => {
          const doc = read(d);
          if (!doc) return;
          push({ type: 'insert', doc });
          latest.current.options.onInsert?.(doc);
        },
        update: (d) => {
          const doc = read(d);
          if (doc) push({ type: 'update', doc });
        },
        delete: (docId) => push({ type: 'delete', id: docId }),
        status: (status, message) => push({ type: 'status', status, message }),
      },
    );
    return () => {
      clearTimeout(timer);
      pending = [];
      client.unsubscribe(id);
    };
  }, [client, collection, key]);

  const docs = useMemo(() => state.ids.flatMap((id) => state.byId.get(id) ?? []), [state.ids, state.byId]);
  return { docs, byId: state.byId, status: state.status, message: state.message };
}
