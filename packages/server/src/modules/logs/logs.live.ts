import type { NormalFilter } from '@gdb/shared/live/filter';
import { LOG_LEVELS } from '@gdb/shared/live/live.schemas';
import { z } from 'zod';
import { type CollectionDef, rowOf, textOrNull } from '../../platform/live/collections.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import { type LogsService, toLiveLog } from './logs.service.ts';

const logRowSchema = z.object({
  id: z.union([z.number(), z.string()]),
  log_date: z.string(),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  data_sub_kind: z.string().nullable(),
  upload_id: z.string().nullable(),
  import_id: z.string().nullable(),
});

/** The pipelines of the uploads or imports named; undefined when one of them does not exist. */
type PipelinesOf = (ids: readonly string[]) => Promise<string[] | undefined>;

/** The live `logs` collection: filtered by `uploadId` and/or `importId` (one is required), readable where those are. */
export function logsLiveCollection(
  logs: LogsService,
  pipelines: Pick<PipelinesService, 'liveReadRule'>,
  owners: { uploads: PipelinesOf; imports: PipelinesOf },
): CollectionDef {
  const pipelinesOf = async (f: NormalFilter) => {
    if (!f.uploadId && !f.importId) return undefined;
    const a = f.uploadId ? await owners.uploads(f.uploadId) : [];
    const b = f.importId ? await owners.imports(f.importId) : [];
    return a && b && [...new Set([...a, ...b])];
  };
  return {
    name: 'logs',
    uuidKeys: ['uploadId', 'importId'],
    requiresFilter: true,
    read: (f, limit) => logs.find({ uploadIds: f.uploadId, importIds: f.importId }, limit),
    byId: async (id) => (/^\d+$/.test(id) ? (await logs.byIds([Number(id)]))[0] : undefined),
    fromRow: (row) => {
      const r = rowOf(logRowSchema, row);
      return r && toLiveLog(r);
    },
    fromKeys: (id, keys) => ({ _id: id, uploadId: textOrNull(keys.upload_id), importId: textOrNull(keys.import_id) }),
    mayRead: pipelines.liveReadRule(pipelinesOf),
  };
}
