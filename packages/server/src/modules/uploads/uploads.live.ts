import type { NormalFilter } from '@gdb/shared/live/filter';
import { type LiveUpload, UPLOAD_STATUSES } from '@gdb/shared/live/live.schemas';
import { z } from 'zod';
import { isoOf } from '../../platform/dates.ts';
import type { Executor } from '../../platform/db/transaction.ts';
import { type CollectionDef, ownersOf, rowOf, textOrNull } from '../../platform/live/collections.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import { uploadsRepo } from './uploads.repo.ts';

const uploadRowSchema = z.object({
  id: z.string(),
  pipeline_id: z.string(),
  data_sub_kind: z.string(),
  from: z.enum(['source', 'destination']),
  status: z.enum(UPLOAD_STATUSES),
  original_filename: z.string().nullable(),
  content_type: z.string().nullable(),
  size: z.number(),
  row_count: z.number().nullable(),
  import_id: z.string().nullable(),
  enabled: z.boolean(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  imported_at: z.string().nullable().default(null),
  imported_by: z.string().nullable().default(null),
  sent_from: z.enum(['wizard', 'testing']).default('wizard'),
});
type UploadRowLike = Omit<z.infer<typeof uploadRowSchema>, 'created_at' | 'imported_at'> & {
  created_at: Date | string;
  imported_at: Date | string | null;
};

/** The projection of an upload row into the live channel's document. */
function toLiveUpload(r: UploadRowLike): LiveUpload {
  return {
    _id: r.id,
    pipelineId: r.pipeline_id,
    dataSubKind: r.data_sub_kind,
    from: r.from,
    status: r.status,
    originalFilename: r.original_filename,
    contentType: r.content_type,
    size: r.size,
    rowCount: r.row_count,
    importId: r.import_id,
    enabled: r.enabled,
    createdAt: isoOf(r.created_at),
    createdBy: r.created_by,
    importedAt: r.imported_at === null ? null : isoOf(r.imported_at),
    importedBy: r.imported_by,
    sentFrom: r.sent_from,
  };
}

/** The pipelines of these uploads; undefined when one of them does not exist. */
export async function pipelinesOfUploads(k: Executor, ids: readonly string[]): Promise<string[] | undefined> {
  return ownersOf(ids, await uploadsRepo(k).pipelinesOf(ids));
}

/** The live `uploads` collection: filtered by `_id`, readable where the uploads' pipelines are. */
export function uploadsLiveCollection(k: Executor, pipelines: Pick<PipelinesService, 'liveReadRule'>): CollectionDef {
  const repo = uploadsRepo(k);
  return {
    name: 'uploads',
    uuidKeys: ['_id'],
    requiresFilter: false,
    read: async (f, limit) => (await repo.newest(f._id, limit)).reverse().map(toLiveUpload),
    byId: async (id) => (await repo.newest([id], 1)).map(toLiveUpload)[0],
    fromRow: (row) => {
      const r = rowOf(uploadRowSchema, row);
      return r && toLiveUpload(r);
    },
    fromKeys: (id, keys) => ({ _id: id, pipelineId: textOrNull(keys.pipeline_id) }),
    mayRead: pipelines.liveReadRule(async (f: NormalFilter) => (f._id ? pipelinesOfUploads(k, f._id) : undefined)),
  };
}
