import { hasAnyRole } from '@gdb/shared/auth/roles';
import type { CreateImportBody, EditJobBody, JobCreated } from '@gdb/shared/imports/import.schemas';
import {
  IMPORT_MESSAGES,
  mayCreateJobKind,
  missingFieldsMessage,
  type ResolvedSchedule,
  resolveSchedule,
} from '@gdb/shared/imports/import-rules';
import { parseRepeatPattern } from '@gdb/shared/imports/repeat-pattern';
import { nextRunIn } from '@gdb/shared/imports/zoned-time';
import { missingRunFields, type PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import type { Database } from '../../platform/db/index.ts';
import { badRequest, conflict, forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { LogLine, LogsService } from '../logs/logs.service.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import { importsRepo, type JobRow, jobsRepo } from './imports.repo.ts';
import type { JobQueue } from './job-queue.ts';

/** What writing jobs needs: the pipelines (the caller's rights), the logs, the database and the run queue. */
export interface JobsScope {
  pipelines: PipelinesService;
  logs: LogsService;
  db: Kysely<Database>;
  queue: JobQueue;
}

type Schedule = Extract<ResolvedSchedule, { ok: true }>;

/** Checks a schedule payload: an unknown kind is 'Something unexpected happened.'; Repeat is refused to the role user. */
function checkSchedule(
  auth: AuthContext,
  body: Pick<CreateImportBody, 'kind' | 'scheduledDate' | 'scheduledTime' | 'repeatPattern'>,
) {
  const schedule = resolveSchedule(body);
  if (!schedule.ok) {
    if (schedule.message === IMPORT_MESSAGES.unexpected) throw badRequest(schedule.message);
    throw invalid(schedule.message, [
      { path: body.kind === 'repeat' ? 'repeatPattern' : 'scheduledDate', message: schedule.message },
    ]);
  }
  if (schedule.kind === 'repeat' && auth.roles.includes('user')) throw forbidden(IMPORT_MESSAGES.repeatRefused);
  return schedule;
}

/** Refuses a pipeline that cannot run: missing properties or no data source. */
export function checkRunnable(pipeline: PipelineView): void {
  const missing = missingRunFields(pipeline);
  if (missing.length > 0) throw invalid(missingFieldsMessage(missing));
  if (pipeline.dataSources.length === 0) throw invalid(IMPORT_MESSAGES.noDataSource);
}

/** The country pipelines a sequential job runs: the chosen ones (all when none is chosen), in order. */
async function countriesFor(s: JobsScope, auth: AuthContext, master: PipelineView, chosen: readonly string[]) {
  if (!master.isMaster) throw invalid(IMPORT_MESSAGES.notMaster);
  const countries = await s.pipelines.countriesOf(auth, master._id);
  if (countries.length === 0) throw invalid(IMPORT_MESSAGES.noCountries);
  if (chosen.length === 0) return countries.map((c) => c._id);
  for (const id of chosen) {
    if (!countries.some((c) => c._id === id)) throw invalid(IMPORT_MESSAGES.notCountry.replace('{name}', id));
  }
  return [...new Set(chosen)];
}

/** Refuses when the pipeline runs an import or has one waiting to run now. */
async function checkIdle(k: Kysely<Database>, pipelineId: string, message: string, pendingMessage = message) {
  const busy = await importsRepo(k).busyOf(pipelineId, new Date());
  if (busy) throw conflict(busy === 'running' ? message : pendingMessage);
}

/** The log line that says when a job's new import runs, and who set it. */
function scheduledLine(schedule: Schedule, scheduledAt: Date | null, by: string): string {
  if (scheduledAt === null) return `Import queued by ${by}.`;
  if (schedule.kind === 'repeat') {
    return `Import repeats on '${schedule.repeatPattern}' (${schedule.timeZone}); next run ${scheduledAt.toISOString()}, set by ${by}.`;
  }
  return `Import scheduled for ${scheduledAt.toISOString()} by ${by}.`;
}

/** Records the job's next import (and queues it when it runs now), inside the caller's transaction. */
export async function scheduleImport(
  s: JobsScope,
  trx: Kysely<Database>,
  auth: AuthContext,
  target: { pipeline: PipelineView; job: JobRow; schedule: Schedule },
): Promise<string> {
  const { pipeline, job, schedule } = target;
  const pattern = schedule.kind === 'repeat' ? parseRepeatPattern(schedule.repeatPattern) : null;
  const scheduledAt =
    schedule.kind === 'scheduled' ? schedule.scheduledAt : pattern ? nextRunIn(pattern, new Date(), schedule.timeZone) : null;
  const row = await importsRepo(trx).insert({
    id: newId(),
    pipeline_id: pipeline._id,
    job_id: job.id,
    scheduled_at: scheduledAt,
    user_id: auth.userId,
    destinations: pipeline.dataSinks.map((d) => d.name),
  });
  await jobsRepo(trx).update(job.id, { next_run_at: scheduledAt });
  if (scheduledAt === null) await s.queue.sendRun(trx, row.id);
  const line: LogLine = { level: 'info', message: scheduledLine(schedule, scheduledAt, auth.userName), importId: row.id };
  await s.logs.append(line, trx);
  return row.id;
}

export function jobFields(
  schedule: Schedule,
  body: Pick<CreateImportBody, 'scheduledDate' | 'scheduledTime' | 'restartOnError'>,
) {
  return {
    job_kind: schedule.kind,
    repeat_pattern: schedule.repeatPattern,
    scheduled_date: schedule.kind === 'scheduled' ? (body.scheduledDate ?? null) : null,
    scheduled_time: schedule.kind === 'scheduled' ? (body.scheduledTime ?? null) : null,
    restart_on_error: body.restartOnError,
    timezone: schedule.timeZone,
  };
}

/** Writes a job in one transaction, then wakes the queue; a second active schedule of a kind is 409. */
export async function writeJob<T>(s: JobsScope, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  await s.queue.ready();
  try {
    const answer = await s.db.transaction().execute(work);
    s.queue.nudge();
    return answer;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(IMPORT_MESSAGES.scheduleExists);
    throw error;
  }
}

/** Creates a job and its first import (POST /imports): now, later, repeated or a master's country pipelines in order. */
export async function createJob(s: JobsScope, auth: AuthContext, body: CreateImportBody): Promise<JobCreated> {
  const schedule = checkSchedule(auth, body);
  const pipeline = await s.pipelines.byId(auth, body.pipelineId);
  checkRunnable(pipeline);
  const countries = schedule.kind === 'sequential' ? await countriesFor(s, auth, pipeline, body.listPipelines) : [];
  // A busy pipeline is refused without queueing for its lock (many callers trying again at once
  // would each hold a connection while they wait); an idle one is checked again under the lock.
  await checkIdle(s.db, pipeline._id, IMPORT_MESSAGES.running);
  return writeJob(s, async (trx) => {
    // One request at a time per pipeline decides whether it is idle: two cannot both get in.
    await importsRepo(trx).lockPipeline(pipeline._id);
    await checkIdle(trx, pipeline._id, IMPORT_MESSAGES.running);
    if (schedule.kind === 'scheduled' || schedule.kind === 'repeat') {
      if (await jobsRepo(trx).activeScheduleOf(pipeline._id, schedule.kind)) throw conflict(IMPORT_MESSAGES.scheduleExists);
    }
    const job = await jobsRepo(trx).insert({
      id: newId(),
      pipeline_id: pipeline._id,
      ...jobFields(schedule, body),
      scheduled_by: auth.userId,
      list_pipelines: countries,
      state: 'active',
    });
    return { jobId: job.id, importId: await scheduleImport(s, trx, auth, { pipeline, job, schedule }) };
  });
}

/**
 * A job the caller may replace or cancel, with its pipeline (null when the pipeline is gone): one
 * of a pipeline it may use (a gone pipeline's only for those who manage jobs), of a kind it may create.
 */
export async function jobFor(s: JobsScope, auth: AuthContext, jobId: string) {
  const job = await jobsRepo(s.db).byId(jobId);
  if (!job) throw notFound('Job not found.');
  const pipeline = job.pipeline_id ? await s.pipelines.byId(auth, job.pipeline_id) : null;
  if (!pipeline && !hasAnyRole(auth.roles, ['manager', 'admin', 'super-admin'])) throw forbidden();
  if (!mayCreateJobKind(auth.roles, job.job_kind)) throw forbidden(IMPORT_MESSAGES.jobNotYours);
  return { job, pipeline };
}

/** Removes a job's waiting imports (they have not run; nothing of them is kept). */
export async function dropWaiting(trx: Kysely<Database>, jobId: string) {
  for (const row of await importsRepo(trx).pendingOfJob(jobId)) await importsRepo(trx).delete(row.id);
}

/** Gives a job a new schedule (POST /imports/job); refused while its pipeline runs or waits to run an import. */
export async function editJob(s: JobsScope, auth: AuthContext, body: EditJobBody): Promise<JobCreated> {
  const schedule = checkSchedule(auth, body);
  const { job, pipeline } = await jobFor(s, auth, body.jobId);
  if (!pipeline) throw notFound('The pipeline of this job no longer exists.');
  checkRunnable(pipeline);
  const countries = schedule.kind === 'sequential' ? await countriesFor(s, auth, pipeline, body.listPipelines) : [];
  return writeJob(s, async (trx) => {
    await checkIdle(trx, pipeline._id, IMPORT_MESSAGES.editRunning, IMPORT_MESSAGES.editPending);
    if (schedule.kind === 'scheduled' || schedule.kind === 'repeat') {
      const other = await jobsRepo(trx).activeScheduleOf(pipeline._id, schedule.kind);
      if (other && other.id !== job.id) throw conflict(IMPORT_MESSAGES.scheduleExists);
    }
    await dropWaiting(trx, job.id);
    const updated = await jobsRepo(trx).update(job.id, {
      ...jobFields(schedule, body),
      list_pipelines: countries,
      state: 'active',
      scheduled_by: auth.userId,
    });
    if (!updated) throw notFound('Job not found.');
    return { jobId: job.id, importId: await scheduleImport(s, trx, auth, { pipeline, job: updated, schedule }) };
  });
}
