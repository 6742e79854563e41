import type { NormalFilter } from '@gdb/shared/live/filter';
import { IMPORT_STATES, type LiveImport } from '@gdb/shared/live/live.schemas';
import { z } from 'zod';
import { isoOf, isoOrNull } from '../../platform/dates.ts';
import type { Executor } from '../../platform/db/transaction.ts';
import { type CollectionDef, ownersOf, rowOf, textOrNull } from '../../platform/live/collections.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import { importsLiveRepo } from './imports.repo.ts';

const importRowSchema = z.object({
  id: z.string(),
  pipeline_id: z.string().nullable(),
  job_id: z.string().nullable(),
  parent_import_id: z.string().nullable(),
  scheduled_at: z.string().nullable(),
  started_at: z.string().nullable(),
  end_at: z.string().nullable(),
  state: z.enum(IMPORT_STATES),
  success: z.boolean().nullable(),
  progress: z.number(),
  user_id: z.string().nullable(),
  destinations: z.array(z.string()),
  created_at: z.string(),
});
type ImportRowLike = Omit<z.infer<typeof importRowSchema>, 'scheduled_at' | 'started_at' | 'end_at' | 'created_at'> & {
  scheduled_at: Date | string | null;
  started_at: Date | string | null;
  end_at: Date | string | null;
  created_at: Date | string;
};

/** The projection of an import row into the live channel's document. */
function toLiveImport(r: ImportRowLike): LiveImport {
  return {
    _id: r.id,
    pipeline: r.pipeline_id,
    job: r.job_id,
    parentImport: r.parent_import_id,
    scheduledAt: isoOrNull(r.scheduled_at),
    startedAt: isoOrNull(r.started_at),
    endAt: isoOrNull(r.end_at),
    state: r.state,
    success: r.success,
    progress: r.progress,
    user: r.user_id,
    destinations: r.destinations,
    createdAt: isoOf(r.created_at),
  };
}

/** The pipelines of these imports; undefined when one of them does not exist or has no pipeline. */
export async function pipelinesOfImports(k: Executor, ids: readonly string[]): Promise<string[] | undefined> {
  return ownersOf(ids, await importsLiveRepo(k).pipelinesOf(ids));
}

/** The pipelines an imports filter reaches: those of the imports named and those named. */
async function pipelinesOf(k: Executor, f: NormalFilter): Promise<string[] | undefined> {
  if (!f._id && !f.pipeline) return undefined;
  const byImport = f._id ? await pipelinesOfImports(k, f._id) : [];
  return byImport && [...new Set([...byImport, ...(f.pipeline ?? [])])];
}

/** The live `imports` collection: filtered by `_id` and `pipeline`, readable where the imports' pipelines are. */
export function importsLiveCollection(k: Executor, pipelines: Pick<PipelinesService, 'liveReadRule'>): CollectionDef {
  const repo = importsLiveRepo(k);
  return {
    name: 'imports',
    uuidKeys: ['_id', 'pipeline'],
    requiresFilter: false,
    read: async (f, limit) => (await repo.newest({ ids: f._id, pipelineIds: f.pipeline }, limit)).reverse().map(toLiveImport),
    byId: async (id) => (await repo.newest({ ids: [id] }, 1)).map(toLiveImport)[0],
    fromRow: (row) => {
      const r = rowOf(importRowSchema, row);
      return r && toLiveImport(r);
    },
    fromKeys: (id, keys) => ({ _id: id, pipeline: textOrNull(keys.pipeline_id) }),
    mayRead: pipelines.liveReadRule((f) => pipelinesOf(k, f)),
  };
}
