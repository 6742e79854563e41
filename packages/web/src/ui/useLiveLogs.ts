import { type LiveFilter, type LiveLog, liveLogSchema } from '@gdb/shared/live/live.schemas';
import { useMemo } from 'react';
import type { LiveDoc } from '../ground/live/codec.ts';
import { type LiveDocumentsState, useLiveDocuments } from './useLiveDocuments.ts';

/** Whose logs to follow: an upload, an import, or a list of either. */
export interface LogSelection {
  uploadId?: string | readonly string[] | null | undefined;
  importId?: string | readonly string[] | null | undefined;
}

export interface LiveLogs extends Omit<LiveDocumentsState<LiveLog>, 'docs'> {
  /** Newest first: the init reversed, each new line on top. */
  logs: LiveLog[];
}

const parseLog = (doc: LiveDoc) => {
  const r = liveLogSchema.safeParse(doc);
  return r.success ? r.data : undefined;
};

function filterOf(selection: LogSelection | null | undefined): LiveFilter | null {
  const filter: LiveFilter = {};
  for (const key of ['uploadId', 'importId'] as const) {
    const value = selection?.[key];
    if (typeof value === 'string' && value) filter[key] = value;
    else if (Array.isArray(value) && value.length) filter[key] = [...value];
  }
  return Object.keys(filter).length ? filter : null;
}

/** A line's place in the order lines were written: its id, a number the database gives in order. */
const writtenAt = (log: LiveLog) => (/^\d+$/.test(log._id) ? Number(log._id) : Number.NaN);

/**
 * Lines newest first: the order they came in reversed, then by the order they were written where
 * their ids tell it (lines of one run written by two writers may arrive out of that order).
 */
function newestFirst(docs: readonly LiveLog[]): LiveLog[] {
  const reversed = [...docs].reverse();
  if (!reversed.every((l) => Number.isFinite(writtenAt(l)))) return reversed;
  return reversed.sort((a, b) => writtenAt(b) - writtenAt(a));
}

/**
 * The live log lines of an upload or an import, newest first (docs/product.md §12.1: the initial set
 * reversed, inserts on top). Selecting another upload or import cancels the previous subscription.
 * `onInsert` sees each new line (e.g. a 'Data download reference : ' line).
 */
export function useLiveLogs(
  selection: LogSelection | null | undefined,
  options: { onInsert?: (log: LiveLog) => void } = {},
): LiveLogs {
  const filter = filterOf(selection);
  const { docs, ...rest } = useLiveDocuments('logs', filter, parseLog, options.onInsert ? { onInsert: options.onInsert } : {});
  const logs = useMemo(() => newestFirst(docs), [docs]);
  return { logs, ...rest };
}
