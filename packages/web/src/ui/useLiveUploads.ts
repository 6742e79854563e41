import { type LiveUpload, liveUploadSchema } from '@gdb/shared/live/live.schemas';
import { useMemo } from 'react';
import type { LiveDoc } from '../ground/live/codec.ts';
import { type LiveDocumentsState, useLiveDocuments } from './useLiveDocuments.ts';

export interface LiveUploads extends Omit<LiveDocumentsState<LiveUpload>, 'docs'> {
  /** The uploads known so far, in the order of the ids asked for. */
  uploads: LiveUpload[];
}

const parseUpload = (doc: LiveDoc) => {
  const r = liveUploadSchema.safeParse(doc);
  return r.success ? r.data : undefined;
};

/** Follows uploads by id, so their status changes show without reload (empty list: nothing to follow). */
export function useLiveUploads(ids: readonly string[] | null | undefined): LiveUploads {
  const list = ids ?? [];
  const filter = list.length ? { _id: [...list] } : null;
  const { byId, ...rest } = useLiveDocuments('uploads', filter, parseUpload);
  const order = list.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ids are compared by value through `order`
  const uploads = useMemo(() => list.flatMap((id) => byId.get(id) ?? []), [byId, order]);
  return { uploads, byId, status: rest.status, message: rest.message };
}
