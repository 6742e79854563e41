import { z } from 'zod';
import { IMPORT_STATES } from '../live/live.schemas.ts';
import { brandSchema, datakindSchema, localeSchema, productLineSchema } from '../reference/reference.schemas.ts';
import { idSchema } from '../users/users.schemas.ts';

export { IMPORT_STATES };
export type ImportState = (typeof IMPORT_STATES)[number];

export const JOB_KINDS = ['immediate', 'scheduled', 'repeat', 'sequential'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Logbook page size (000 §9). */
export const LOGBOOK_PAGE_SIZE = 9;

/**
 * The schedule part of a job payload (000 §3). `kind` is free text so that an unknown kind answers
 * 'Something unexpected happened.'; dates are 'YYYY-MM-DD' with 'HH:mm' on the wall clock of
 * `timezone` (UTC when absent), or a full ISO date-time in scheduledDate.
 */
const scheduleFields = {
  kind: z.string().max(40),
  scheduledDate: z.string().max(40).nullish(),
  scheduledTime: z.string().max(10).nullish(),
  repeatPattern: z.string().max(40).nullish(),
  restartOnError: z.boolean().default(false),
  /** Country pipelines a sequential job runs, in this order. */
  listPipelines: z.array(idSchema).max(500).default([]),
  /** The time zone dates, times and repeat patterns are read in: an IANA name such as 'Europe/Paris' (default UTC). */
  timezone: z.string().max(64).nullish(),
  /** Sent by the wizard with its own state; not used by the server. */
  state: z.string().max(100).nullish(),
};

/** POST /imports: the pipeline and its schedule. */
export const createImportBodySchema = z.object({ pipelineId: idSchema, ...scheduleFields });
export type CreateImportBody = z.infer<typeof createImportBodySchema>;

/** POST /imports/job: a new schedule for an existing job. */
export const editJobBodySchema = z.object({ jobId: idSchema, ...scheduleFields });
export type EditJobBody = z.infer<typeof editJobBodySchema>;

/** POST /imports/runAllImport: run every country pipeline of a master, one after the other. */
export const runAllBodySchema = z.object({ pipelineId: idSchema, restartOnError: z.boolean().default(true) });

export const jobCreatedSchema = z.object({ jobId: z.string(), importId: z.string() });
export type JobCreated = z.infer<typeof jobCreatedSchema>;

export const pipelineIdQuerySchema = z.object({ pipelineId: idSchema });
export const jobIdQuerySchema = z.object({ jobId: idSchema });
export const importIdQuerySchema = z.object({ importId: idSchema });
export const importIdBodySchema = z.object({ importId: idSchema });
export const logsJobsQuerySchema = z.object({ id: idSchema });

/** An import record (000 §3) with the names the logbook shows. */
export const importRecordSchema = z.object({
  _id: z.string(),
  pipeline: z.string().nullable(),
  pipelineName: z.string().nullable(),
  pipelineVersion: z.number().nullable(),
  job: z.string().nullable(),
  jobKind: z.enum(JOB_KINDS).nullable(),
  parentImport: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  endAt: z.string().nullable(),
  state: z.enum(IMPORT_STATES),
  success: z.boolean(),
  progress: z.number(),
  user: z.string().nullable(),
  userFirstName: z.string().nullable(),
  destinations: z.array(z.string()),
  createdAt: z.string(),
});
export type ImportRecord = z.infer<typeof importRecordSchema>;

/** The schedule a job was created with, as the wizard sends it back when editing. */
export const importDataSchema = z.object({
  kind: z.enum(JOB_KINDS),
  scheduledDate: z.string().nullable(),
  scheduledTime: z.string().nullable(),
  repeatPattern: z.string(),
  restartOnError: z.boolean(),
  listPipelines: z.array(z.string()),
  timezone: z.string(),
});

/** A job (000 §3 Scheduled job; 002 §2 Jobs list). `pipeline` is null when the pipeline is gone. */
export const scheduledJobSchema = z.object({
  _id: z.string(),
  pipeline: z.object({ _id: z.string(), name: z.string(), version: z.number() }).nullable(),
  scheduledBy: z.object({ _id: z.string(), userName: z.string() }).nullable(),
  lastExecuted: z.string().nullable(),
  nextImport: z.object({ _id: z.string().nullable(), scheduledAt: z.string() }).nullable(),
  jobKind: z.enum(JOB_KINDS),
  state: z.string(),
  repeatPattern: z.string(),
  importData: importDataSchema,
  createdAt: z.string(),
});
export type ScheduledJob = z.infer<typeof scheduledJobSchema>;

/** GET /imports/listScheduled: repeating and one-time jobs, and their waiting imports. */
export const listScheduledSchema = z.object({
  repeatable: z.array(scheduledJobSchema),
  scheduled: z.array(scheduledJobSchema),
  imports: z.array(importRecordSchema),
});

/**
 * GET /imports/job: the pipeline's current import, the job the caller edits in the wizard, and the
 * pipeline's other active schedules (a repeat job the role user may not change), shown read-only.
 */
export const currentJobSchema = z.object({
  imp: importRecordSchema.nullable(),
  job: scheduledJobSchema.nullable(),
  others: z.array(scheduledJobSchema),
});

const booleanText = z.enum(['true', 'false']).transform((v) => v === 'true');

/** GET /imports/listAll: logbook filters and page (pageNumber zero-based). */
export const listAllQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(0).max(100_000).default(0),
  nbItemsPerPage: z.coerce.number().int().min(1).max(100).default(LOGBOOK_PAGE_SIZE),
  locale: idSchema.optional(),
  brand: idSchema.optional(),
  datakind: idSchema.optional(),
  productLine: idSchema.optional(),
  user: idSchema.optional(),
  success: booleanText.optional(),
  /** Past only (default) or future only: imports waiting for a later time. */
  time: z.enum(['past', 'future']).default('past'),
});
export type ListAllQuery = z.infer<typeof listAllQuerySchema>;

export const listAllSchema = z.object({ records: z.array(importRecordSchema), totalCount: z.number() });

/** GET /imports/listAllFilters: the logbook's filter lists. */
export const listAllFiltersSchema = z.object({
  brands: z.array(brandSchema),
  locales: z.array(localeSchema),
  productLines: z.array(productLineSchema),
  datakinds: z.array(datakindSchema),
  users: z.array(z.object({ _id: z.string(), firstName: z.string() })),
});
