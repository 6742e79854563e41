import type { ImportRecord, JobKind, ScheduledJob } from '@gdb/shared/imports/import.schemas';
import type { ImportRow, JobRow } from './imports.repo.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An import row joined with its pipeline, job kind and user names. */
export type ImportRecordRow = ImportRow & {
  pipeline_name: string | null;
  pipeline_version: number | null;
  job_kind: JobKind | null;
  user_first_name: string | null;
};

/** A job row joined with its pipeline and author names. */
export type JobViewRow = JobRow & {
  pipeline_name: string | null;
  pipeline_version: number | null;
  scheduled_by_name: string | null;
};

/** An import in the API's words (docs/product.md §12.3). */
export function toImportRecord(r: ImportRecordRow): ImportRecord {
  return {
    _id: r.id,
    pipeline: r.pipeline_id,
    pipelineName: r.pipeline_name,
    pipelineVersion: r.pipeline_version,
    job: r.job_id,
    jobKind: r.job_kind,
    parentImport: r.parent_import_id,
    scheduledAt: iso(r.scheduled_at),
    startedAt: iso(r.started_at),
    endAt: iso(r.end_at),
    state: r.state,
    success: r.success,
    progress: r.progress,
    user: r.user_id,
    userFirstName: r.user_first_name,
    destinations: r.destinations,
    createdAt: r.created_at.toISOString(),
  };
}

/** A job in the API's words (docs/product.md §11.6), with the import it waits to run. */
export function toScheduledJob(r: JobViewRow, next: { id: string | null; scheduledAt: Date } | null): ScheduledJob {
  return {
    _id: r.id,
    pipeline:
      r.pipeline_id && r.pipeline_name !== null
        ? { _id: r.pipeline_id, name: r.pipeline_name, version: r.pipeline_version ?? 0 }
        : null,
    scheduledBy: r.scheduled_by && r.scheduled_by_name ? { _id: r.scheduled_by, userName: r.scheduled_by_name } : null,
    lastExecuted: iso(r.last_executed_at),
    nextImport: next ? { _id: next.id, scheduledAt: next.scheduledAt.toISOString() } : null,
    jobKind: r.job_kind,
    state: r.state,
    repeatPattern: r.repeat_pattern,
    importData: {
      kind: r.job_kind,
      scheduledDate: r.scheduled_date,
      scheduledTime: r.scheduled_time,
      repeatPattern: r.repeat_pattern,
      restartOnError: r.restart_on_error,
      listPipelines: r.list_pipelines,
      timezone: r.timezone,
    },
    createdAt: r.created_at.toISOString(),
  };
}
