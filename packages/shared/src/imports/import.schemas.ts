import { z } from 'zod';
import { IMPORT_STATES } from '../live/live.schemas.ts';
import { brandSchema, datakindSchema, localeSchema, productLineSchema } from '../reference/reference.schemas.ts';
import { idSchema } from '../users/users.schemas.ts';

export { IMPORT_STATES };
export type ImportState = (typeof IMPORT_STATES)[number];

export const JOB_KINDS = ['immediate', 'scheduled', 'repeat', 'sequential'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** Logbook page size (docs/product.md §12.3). */
export const LOGBOOK_PAGE_SIZE = 9;

/**
 * The schedule part of a job payload (docs/product.md §11.9). `kind` is free text so that an unknown kind answers
 * 'Something unexpected happened.'; dates are 'YYYY-MM-DD' with 'HH:mm' on the wall clock of
 * `timezone` (UTC when absent), or a full ISO date-time in scheduledDate.
 */
const scheduleFields = {
  kind: z.string().max(40).describe('immediate (now), scheduled (later), repeat or sequential.'),
  scheduledDate: z
    .string()
    .max(40)
    .nullish()
    .describe('For scheduled: the day, YYYY-MM-DD (or a full ISO date-time with its offset); not in the past.'),
  scheduledTime: z.string().max(10).nullish().describe('For scheduled: the time, HH:mm.'),
  repeatPattern: z
    .string()
    .max(40)
    .nullish()
    .describe("For repeat: 'H {n}' hourly, 'M {n}' minutely, or cron text 'm h * * *', 'm h * * weekday', 'm h day * *'."),
  restartOnError: z.boolean().default(false).describe('Run a failed import again (at most 3 runs in all).'),
  /** Country pipelines a sequential job runs, in this order. */
  listPipelines: z
    .array(idSchema)
    .max(500)
    .default([])
    .describe("For sequential: the master's country pipelines to run, in this order."),
  /** The time zone dates, times and repeat patterns are read in: an IANA name such as 'Europe/Paris' (default UTC). */
  timezone: z
    .string()
    .max(64)
    .nullish()
    .describe("The time zone dates, times and patterns are read in: an IANA name such as 'Europe/Paris' (default UTC)."),
  /** Sent by the wizard with its own state; not used by the server. */
  state: z.string().max(100).nullish().describe("The wizard's own state; not used by the server."),
};

/** POST /imports: the pipeline and its schedule. */
export const createImportBodySchema = z.object({ pipelineId: idSchema.describe('The pipeline to run.'), ...scheduleFields });
export type CreateImportBody = z.infer<typeof createImportBodySchema>;

/** POST /imports/job: a new schedule for an existing job. */
export const editJobBodySchema = z.object({ jobId: idSchema.describe('The job to reschedule.'), ...scheduleFields });
export type EditJobBody = z.infer<typeof editJobBodySchema>;

/** POST /imports/runAllImport: run every country pipeline of a master, one after the other. */
export const runAllBodySchema = z.object({
  pipelineId: idSchema.describe('The master pipeline.'),
  restartOnError: z.boolean().default(true).describe('Run a failed country import again (at most 3 runs in all).'),
});

export const jobCreatedSchema = z.object({
  jobId: z.string().describe('The job.'),
  importId: z.string().describe('Its first (or next) import, to follow in the logbook.'),
});
export type JobCreated = z.infer<typeof jobCreatedSchema>;

export const pipelineIdQuerySchema = z.object({ pipelineId: idSchema.describe('Pipeline id.') });
export const jobIdQuerySchema = z.object({ jobId: idSchema.describe('Job id.') });
export const importIdQuerySchema = z.object({ importId: idSchema.describe('Import id.') });
export const importIdBodySchema = z.object({ importId: idSchema.describe('Import id.') });
export const logsJobsQuerySchema = z.object({ id: idSchema.describe('Import id.') });

/** An import record (docs/product.md §12.3) with the names the logbook shows. */
export const importRecordSchema = z.object({
  _id: z.string().describe('Import id.'),
  pipeline: z.string().nullable().describe('Pipeline id; null when the pipeline is gone.'),
  pipelineName: z.string().nullable().describe('Pipeline name; null when the pipeline is gone.'),
  pipelineVersion: z.number().nullable().describe('Pipeline version number; null when the pipeline is gone.'),
  job: z.string().nullable().describe('The job that made it; null when the job is gone.'),
  jobKind: z.enum(JOB_KINDS).nullable().describe("The job's kind; null when the job is gone."),
  parentImport: z.string().nullable().describe("For a country import of a sequential run: the master's import."),
  scheduledAt: z.string().nullable().describe('When it is due (ISO date-time); null for an immediate one.'),
  startedAt: z.string().nullable().describe('When it started (ISO date-time); null while waiting.'),
  endAt: z.string().nullable().describe('When it ended (ISO date-time); null while waiting or running.'),
  state: z
    .enum(IMPORT_STATES)
    .describe('pending, busy, progress (or sequential for a master running its countries), then done, failed or aborted.'),
  success: z.boolean().describe('True only once it ended done.'),
  progress: z.number().describe('How far the run is, 0 to 100.'),
  user: z.string().nullable().describe('Id of the user who started or scheduled it.'),
  userFirstName: z.string().nullable().describe("That user's first name; null when unknown."),
  destinations: z.array(z.string()).describe('Names of the data sinks it writes.'),
  createdAt: z.string().describe('When the record was made (ISO date-time).'),
});
export type ImportRecord = z.infer<typeof importRecordSchema>;

/** The schedule a job was created with, as the wizard sends it back when editing. */
export const importDataSchema = z.object({
  kind: z.enum(JOB_KINDS).describe('The job kind.'),
  scheduledDate: z.string().nullable().describe('For scheduled: the day, YYYY-MM-DD.'),
  scheduledTime: z.string().nullable().describe('For scheduled: the time, HH:mm.'),
  repeatPattern: z.string().describe('For repeat: the pattern; empty otherwise.'),
  restartOnError: z.boolean().describe('Whether a failed import runs again.'),
  listPipelines: z.array(z.string()).describe('For sequential: the country pipelines, in order.'),
  timezone: z.string().describe('The IANA time zone the schedule is read in.'),
});

/** A job (docs/product.md §11.6). `pipeline` is null when the pipeline is gone. */
export const scheduledJobSchema = z.object({
  _id: z.string().describe('Job id.'),
  pipeline: z
    .object({
      _id: z.string().describe('Pipeline id.'),
      name: z.string().describe('Pipeline name.'),
      version: z.number().describe('Pipeline version number.'),
    })
    .nullable()
    .describe('The pipeline it runs; null when the pipeline is gone.'),
  scheduledBy: z
    .object({ _id: z.string().describe('User id.'), userName: z.string().describe('User name.') })
    .nullable()
    .describe('Who scheduled it; null when the user is gone.'),
  lastExecuted: z.string().nullable().describe('When it last ran (ISO date-time); null when never.'),
  nextImport: z
    .object({
      _id: z.string().nullable().describe('The waiting import; null when not yet made.'),
      scheduledAt: z.string().describe('When it is due (ISO date-time).'),
    })
    .nullable()
    .describe('The next run; null when none is due.'),
  jobKind: z.enum(JOB_KINDS).describe('immediate, scheduled, repeat or sequential.'),
  state: z.string().describe('active while it has runs to come, then done.'),
  repeatPattern: z.string().describe('For repeat: the pattern; empty otherwise.'),
  importData: importDataSchema.describe('The schedule as it was sent, for the wizard to edit.'),
  createdAt: z.string().describe('When the job was made (ISO date-time).'),
});
export type ScheduledJob = z.infer<typeof scheduledJobSchema>;

/** GET /imports/listScheduled: repeating and one-time jobs, and their waiting imports. */
export const listScheduledSchema = z.object({
  repeatable: z.array(scheduledJobSchema).describe('Repeat jobs.'),
  scheduled: z.array(scheduledJobSchema).describe('One-time jobs still to run.'),
  imports: z.array(importRecordSchema).describe('The imports those jobs wait to run.'),
});

/**
 * GET /imports/job: the pipeline's current import, the job the caller edits in the wizard, and the
 * pipeline's other active schedules (a repeat job the role user may not change), shown read-only.
 */
export const currentJobSchema = z.object({
  imp: importRecordSchema.nullable().describe("The pipeline's current import: running, else waiting, else the newest."),
  job: scheduledJobSchema.nullable().describe('The active job the caller edits in the wizard; null when none.'),
  others: z.array(scheduledJobSchema).describe('Other active jobs of the pipeline the caller may not change (read-only).'),
});

const booleanText = z.enum(['true', 'false']).transform((v) => v === 'true');

/** GET /imports/listAll: logbook filters and page (pageNumber zero-based). */
export const listAllQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(0).max(100_000).default(0).describe('The page, from 0.'),
  nbItemsPerPage: z.coerce.number().int().min(1).max(100).default(LOGBOOK_PAGE_SIZE).describe('Imports per page (9 by default).'),
  locale: idSchema.optional().describe('Only imports of pipelines with this locale id.'),
  brand: idSchema.optional().describe('Only imports of pipelines with this brand id.'),
  datakind: idSchema.optional().describe('Only imports of pipelines with this datakind id.'),
  productLine: idSchema.optional().describe('Only imports of pipelines with this product line id.'),
  user: idSchema.optional().describe('Only imports started or scheduled by this user id.'),
  success: booleanText.optional().describe('true or false: only imports with that success; absent: both.'),
  /** Past only (default) or future only: imports waiting for a later time. */
  time: z.enum(['past', 'future']).default('past').describe('past (default) or future: only imports waiting for a later time.'),
});
export type ListAllQuery = z.infer<typeof listAllQuerySchema>;

export const listAllSchema = z.object({
  records: z.array(importRecordSchema).describe('The imports of the page, newest first.'),
  totalCount: z.number().describe('How many imports match the filters, on all pages.'),
});

/** GET /imports/listAllFilters: the logbook's filter lists. */
export const listAllFiltersSchema = z.object({
  brands: z.array(brandSchema).describe('Every brand.'),
  locales: z.array(localeSchema).describe('Every locale.'),
  productLines: z.array(productLineSchema).describe('Every product line.'),
  datakinds: z.array(datakindSchema).describe('Every datakind.'),
  users: z
    .array(z.object({ _id: z.string().describe('User id.'), firstName: z.string().describe('First name.') }))
    .describe('The users one may filter by.'),
});
