import type { NormalFilter } from '@gdb/shared/live/filter';
import {
  IMPORT_STATES,
  type LiveCollection,
  type LiveImport,
  type LiveUpload,
  LOG_LEVELS,
  UPLOAD_STATUSES,
} from '@gdb/shared/live/live.schemas';
import { z } from 'zod';
import { type LogsService, toLiveLog } from '../../modules/logs/logs.service.ts';
import type { Db } from '../db/index.ts';
import { liveRepo } from './live.repo.ts';

/** A document of any collection, as sent to clients. */
export type LiveDoc = { _id: string } & Record<string, unknown>;

/** What the hub needs to know about one collection. */
export interface CollectionDef {
  name: LiveCollection;
  /** Filter keys whose values are UUIDs. */
  uuidKeys: readonly string[];
  /** True when an empty filter is refused (logs). */
  requiresFilter: boolean;
  /** The newest `limit` documents matching the filter, oldest first. */
  read(filter: NormalFilter, limit: number): Promise<LiveDoc[]>;
  /** One document, read again when its notification did not carry the row. */
  byId(id: string): Promise<LiveDoc | undefined>;
  /** A row from a notification (to_jsonb text) as a document; undefined when it is not one. */
  fromRow(row: unknown): LiveDoc | undefined;
  /** The fields a notification's routing keys stand for (deletes and oversized rows). */
  fromKeys(id: string, keys: Readonly<Record<string, unknown>>): LiveDoc;
  /** The pipelines the filter reaches; undefined when a document it names does not exist or has none. */
  pipelinesOf(filter: NormalFilter): Promise<string[] | undefined>;
}

const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();
const isoOrNull = (v: Date | string | null) => (v === null ? null : iso(v));
const text = (v: unknown) => (typeof v === 'string' ? v : null);

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
});
type UploadRowLike = Omit<z.infer<typeof uploadRowSchema>, 'created_at'> & { created_at: Date | string };

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
    createdAt: iso(r.created_at),
    createdBy: r.created_by,
  };
}

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
    createdAt: iso(r.created_at),
  };
}

const logRowSchema = z.object({
  id: z.union([z.number(), z.string()]),
  log_date: z.string(),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  data_sub_kind: z.string().nullable(),
  upload_id: z.string().nullable(),
  import_id: z.string().nullable(),
});

/** Pipelines of the named documents, or undefined when one is missing or has no pipeline. */
function pipelinesOfRows(ids: readonly string[], rows: { id: string; pipeline_id: string | null }[]): string[] | undefined {
  const found = new Map(rows.map((r) => [r.id, r.pipeline_id]));
  const out = new Set<string>();
  for (const id of ids) {
    const pipeline = found.get(id);
    if (!pipeline) return undefined;
    out.add(pipeline);
  }
  return [...out];
}

/** The three collections of the live channel, reading through the given database and logs service. */
export function liveCollections(db: Db, logs: LogsService): Record<LiveCollection, CollectionDef> {
  const repo = liveRepo(db.kysely);
  const uploadPipelines = async (ids: readonly string[]) => pipelinesOfRows(ids, await repo.uploadPipelines(ids));
  const importPipelines = async (ids: readonly string[]) => pipelinesOfRows(ids, await repo.importPipelines(ids));
  const parse = <T>(schema: z.ZodType<T>, row: unknown): T | undefined => {
    const r = schema.safeParse(row);
    return r.success ? r.data : undefined;
  };

  return {
    uploads: {
      name: 'uploads',
      uuidKeys: ['_id'],
      requiresFilter: false,
      read: async (f, limit) => (await repo.uploads({ ids: f._id }, limit)).reverse().map(toLiveUpload),
      byId: async (id) => (await repo.uploads({ ids: [id] }, 1)).map(toLiveUpload)[0],
      fromRow: (row) => {
        const r = parse(uploadRowSchema, row);
        return r && toLiveUpload(r);
      },
      fromKeys: (id, keys) => ({ _id: id, pipelineId: text(keys.pipeline_id) }),
      pipelinesOf: async (f) => (f._id ? uploadPipelines(f._id) : undefined),
    },
    imports: {
      name: 'imports',
      uuidKeys: ['_id', 'pipeline'],
      requiresFilter: false,
      read: async (f, limit) => (await repo.imports({ ids: f._id, pipelineIds: f.pipeline }, limit)).reverse().map(toLiveImport),
      byId: async (id) => (await repo.imports({ ids: [id] }, 1)).map(toLiveImport)[0],
      fromRow: (row) => {
        const r = parse(importRowSchema, row);
        return r && toLiveImport(r);
      },
      fromKeys: (id, keys) => ({ _id: id, pipeline: text(keys.pipeline_id) }),
      pipelinesOf: async (f) => {
        if (!f._id && !f.pipeline) return undefined;
        const byImport = f._id ? await importPipelines(f._id) : [];
        return byImport && [...new Set([...byImport, ...(f.pipeline ?? [])])];
      },
    },
    logs: {
      name: 'logs',
      uuidKeys: ['uploadId', 'importId'],
      requiresFilter: true,
      read: (f, limit) => logs.find({ uploadIds: f.uploadId, importIds: f.importId }, limit),
      byId: async (id) => (/^\d+$/.test(id) ? (await logs.byIds([Number(id)]))[0] : undefined),
      fromRow: (row) => {
        const r = parse(logRowSchema, row);
        return r && toLiveLog(r);
      },
      fromKeys: (id, keys) => ({ _id: id, uploadId: text(keys.upload_id), importId: text(keys.import_id) }),
      pipelinesOf: async (f) => {
        if (!f.uploadId && !f.importId) return undefined;
        const a = f.uploadId ? await uploadPipelines(f.uploadId) : [];
        const b = f.importId ? await importPipelines(f.importId) : [];
        return a && b && [...new Set([...a, ...b])];
      },
    },
  };
}
