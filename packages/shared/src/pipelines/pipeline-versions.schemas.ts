import { z } from 'zod';
import { scheduledJobSchema } from '../imports/import.schemas.ts';
import { idSchema } from '../users/users.schemas.ts';
import { updateDataSchema, updateReportSchema, updateSuccessSchema, versionDocSchema } from '../versions/versions.schemas.ts';

/** At most this many pipelines in one bulk lock or update, and in one list of countries to update. */
export const MAX_BULK_PIPELINES = 500;

/** POST /pipelines/version/lock: a version, with force and, for a master, its country pipelines. */
export const pipelineLockBodySchema = z.object({
  id: idSchema.describe('Id of the pipeline version to lock.'),
  force: z.boolean().optional().describe('Also lock the drafts it depends on (components, data models, a master), at any depth.'),
  country: z
    .boolean()
    .optional()
    .describe("For a master: also lock its country pipelines (each family's newest version pointing at it)."),
});

/** What to update in a pipeline version: the dependencies chosen in its report, its countries and its jobs. */
export const pipelineUpdateDataSchema = updateDataSchema.extend({
  updateCountries: z
    .boolean()
    .optional()
    .describe(
      'For a master: give its country pipelines new versions too, pointing at the new master and the same newer dependencies; ' +
        'those named in pipelinesToUpdate, or all of them when it names none.',
    ),
  updateJobs: z
    .boolean()
    .optional()
    .describe(
      'Move the active scheduled and repeat jobs (and their waiting imports) of each updated pipeline to its new version.',
    ),
});
export type PipelineUpdateData = z.infer<typeof pipelineUpdateDataSchema>;

export const pipelineUpdateBodySchema = z.object({
  update_data: pipelineUpdateDataSchema.describe('What to update: the version and the dependencies chosen in the report.'),
});

/** The update report of a pipeline version: the engine's, with its country pipelines and its jobs. */
export const pipelineUpdateReportSchema = updateReportSchema.extend({
  isMaster: z.boolean().describe('True for a master pipeline.'),
  repeatJobs: z
    .array(scheduledJobSchema)
    .describe('Active repeat jobs of the pipeline (and, for a master, of its country pipelines) that updateJobs would move.'),
  scheduledJobs: z
    .array(scheduledJobSchema)
    .describe('Active scheduled jobs of the pipeline (and, for a master, of its country pipelines) that updateJobs would move.'),
});
export type PipelineUpdateReport = z.infer<typeof pipelineUpdateReportSchema>;

/** A job that moved to a new pipeline version. */
export const movedJobSchema = z.object({
  _id: z.string().describe('Id of the job.'),
  fromId: z.string().describe('The pipeline version it ran before.'),
  fromName: z.string().describe('Name of that pipeline.'),
  fromVersion: z.number().describe('Version number it ran before.'),
  toId: z.string().describe('The new pipeline version it runs now.'),
  toVersion: z.number().describe('Version number it runs now.'),
});
export type MovedJob = z.infer<typeof movedJobSchema>;

/** A pipeline a bulk call (or the countries of an update) could not handle, with the reason. */
export const bulkErrorSchema = z.object({
  name: z.string().describe('Name of the pipeline (its id when it does not exist).'),
  version: z.number().nullable().describe('Its version number; null when it does not exist.'),
  error: z.string().describe('Why it failed.'),
});
export type BulkError = z.infer<typeof bulkErrorSchema>;

export const pipelineUpdateAnswerSchema = z.object({
  success: z
    .array(updateSuccessSchema)
    .describe('The new versions made: dependencies first, then the pipeline, then its country pipelines.'),
  jobs: z.array(movedJobSchema).describe('The jobs moved to the new versions (with updateJobs).'),
  errors: z.array(bulkErrorSchema).describe('Country pipelines (or, in bulk, pipelines) left as they were, with the reason.'),
});
export type PipelineUpdateAnswer = z.infer<typeof pipelineUpdateAnswerSchema>;

/** GET /pipelines/version/mass-compute: the list of the update tab or of the lock tab. */
export const massComputeQuerySchema = z.object({
  kind: z
    .enum(['update', 'lock'])
    .describe(
      "update: each pipeline's newest version whose dependencies have newer versions (a country once its master needs none); " +
        'lock: each newest version that is a draft (a country once its master is locked).',
    ),
});
export type MassComputeKind = z.infer<typeof massComputeQuerySchema>['kind'];

export const massComputeEntrySchema = z.object({
  doc: versionDocSchema.describe('The pipeline version.'),
  isMaster: z.boolean().describe('True for a master pipeline.'),
  masterPipeline: z.string().nullable().describe("A country's master (a version id); null for a master."),
  report: pipelineUpdateReportSchema.nullable().describe('Its update report (the update list); null in the lock list.'),
});
export type MassComputeEntry = z.infer<typeof massComputeEntrySchema>;

export const massComputeAnswerSchema = z.object({
  pipelines: z
    .object({
      masters: z.array(massComputeEntrySchema).describe('Master pipelines, by name.'),
      country: z.array(massComputeEntrySchema).describe('Country pipelines, by name.'),
    })
    .describe('The pipelines that can be updated (or locked) now.'),
  errors: z.array(bulkErrorSchema).describe('Pipelines whose report could not be made.'),
});
export type MassComputeAnswer = z.infer<typeof massComputeAnswerSchema>;

export const massLockBodySchema = z.object({
  ids: z.array(idSchema).min(1).max(MAX_BULK_PIPELINES).describe('Ids of the pipeline versions to lock, one after the other.'),
  force: z.boolean().optional().describe('Also lock the drafts each depends on.'),
});

export const massLockAnswerSchema = z.object({
  success: z
    .array(z.object({ name: z.string().describe('Pipeline name.'), version: z.number().describe('Version locked.') }))
    .describe('The pipelines locked.'),
  errors: z.array(bulkErrorSchema).describe('The pipelines not locked, with the reason.'),
});
export type MassLockAnswer = z.infer<typeof massLockAnswerSchema>;

/** POST /pipelines/version/mass-update: update payloads, applied one after the other. */
export const massUpdateBodySchema = z
  .array(pipelineUpdateDataSchema)
  .min(1)
  .max(MAX_BULK_PIPELINES)
  .describe('The update payloads, one per pipeline, applied in this order (masters before their countries).');
