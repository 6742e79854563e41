import { type LiveFilter, type LiveImport, liveImportSchema } from '@gdb/shared/live/live.schemas';
import type { LiveDoc } from '../ground/live/codec.ts';
import { type LiveDocumentsState, useLiveDocuments } from './useLiveDocuments.ts';

/** Which imports to follow: by id (a logbook page), by pipeline, or every one (managers). */
export interface ImportSelection {
  ids?: readonly string[] | undefined;
  pipeline?: string | readonly string[] | undefined;
  /** Follow every import the caller may read (an empty filter). */
  all?: boolean;
}

export type LiveImports = LiveDocumentsState<LiveImport>;

const parseImport = (doc: LiveDoc) => {
  const r = liveImportSchema.safeParse(doc);
  return r.success ? r.data : undefined;
};

function filterOf(selection: ImportSelection | null | undefined): LiveFilter | null {
  if (!selection) return null;
  const filter: LiveFilter = {};
  if (selection.ids?.length) filter._id = [...selection.ids];
  const pipeline = selection.pipeline;
  if (typeof pipeline === 'string' && pipeline) filter.pipeline = pipeline;
  else if (Array.isArray(pipeline) && pipeline.length) filter.pipeline = [...pipeline];
  if (Object.keys(filter).length) return filter;
  return selection.all ? {} : null;
}

/**
 * Follows import records for the logbook: `byId` gives the live state, success and dates of each
 * row shown; new imports of a followed pipeline arrive as they are created.
 */
export function useLiveImports(selection: ImportSelection | null | undefined): LiveImports {
  return useLiveDocuments('imports', filterOf(selection), parseImport);
}
