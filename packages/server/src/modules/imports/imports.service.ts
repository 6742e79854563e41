import { hasAnyRole } from '@gdb/shared/auth/roles';
import type { CreateImportBody, EditJobBody, JobCreated } from '@gdb/shared/imports/import.schemas';
import {
  IMPORT_MESSAGES,
  isRunningState,
  mayCreateJobKind,
  missingFieldsMessage,
  type ResolvedSchedule,
  resolveSchedule,
} from '@gdb/shared/imports/import-rules';
import { parseRepeatPattern } from '@gdb/shared/imports/repeat-pattern';
import { nextRunIn } from '@gdb/shared/imports/zoned-time';
import { missingRunFields, type PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { type Kysely, sql } from 'kysely';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import type { Database } from '../../platform/db/index.ts';
import { badRequest, conflict, forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { LogLine } from '../logs/logs.service.ts';
import type { ReferenceService } from '../reference/reference.service.ts';
import { clockTick } from './clock.ts';
import { importRunner } from './import-runner.ts';
import { importsReads } from './imports.reads.ts';
import { importsRepo, type JobRow, jobsRepo, leasesRepo } from './imports.repo.ts';
import { createJobQueue } from './job-queue.ts';
import { leaseKeeper } from './lease-keeper.ts';
import type { RunnerDeps } from './run-context.ts';

export type ImportsDeps = Omit<RunnerDeps, 'queue'> & { reference: ReferenceService };

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

/** Refuses a pipeline that cannot run: missing properties or no data source (000 §5, §8). */
function checkRunnable(pipeline: PipelineView): void {
  const missing = missingRunFields(pipeline);
  if (missing.length > 0) throw invalid(missingFieldsMessage(missing));
  if (pipeline.dataSources.length === 0) throw invalid(IMPORT_MESSAGES.noDataSource);
}

/** Imports and jobs: create, edit, delete, stop; the run queue, the clock and the leases of this process. */
export function importsService(deps: ImportsDeps) {
  const { ctx } = deps;
  const db = ctx.db.kysely;
  const queue = createJobQueue(ctx.db);
  const runner = importRunner({ ...deps, queue });
  const keeper = leaseKeeper({
    ctx,
    logs: deps.logs,
    uploads: deps.uploads,
    queue,
    workerId: runner.workerId,
    leasedHere: () => runner.leasedHere(),
    stopLocal: (id, reason) => runner.stopLocal(id, reason),
  });
  const reads = importsReads(deps);
  let working = false;

  /** The country pipelines a sequential job runs: the chosen ones (all when none is chosen), in order. */
  async function countriesFor(auth: AuthContext, master: PipelineView, chosen: readonly string[]): Promise<string[]> {
    if (!master.isMaster) throw invalid(IMPORT_MESSAGES.notMaster);
    const countries = await deps.pipelines.countriesOf(auth, master._id);
    if (countries.length === 0) throw invalid(IMPORT_MESSAGES.noCountries);
    if (chosen.length === 0) return countries.map((c) => c._id);
    for (const id of chosen) {
      if (!countries.some((c) => c._id === id)) throw invalid(IMPORT_MESSAGES.notCountry.replace('{name}', id));
    }
    return [...new Set(chosen)];
  }

  /** Refuses when the pipeline runs an import or has one waiting to run now. */
  async function checkIdle(k: Kysely<Database>, pipelineId: string, message: string, pendingMessage = message) {
    if (await importsRepo(k).runningOf(pipelineId)) throw conflict(message);
    if ((await importsRepo(k).pendingNowOf(pipelineId, new Date())).length > 0) throw conflict(pendingMessage);
  }

  /** Records the job's next import (and queues it when it runs now), inside the caller's transaction. */
  async function scheduleImport(
    trx: Kysely<Database>,
    auth: AuthContext,
    pipeline: PipelineView,
    job: JobRow,
    schedule: Schedule,
  ): Promise<string> {
    const pattern = schedule.kind === 'repeat' ? parseRepeatPattern(schedule.repeatPattern) : null;
    const scheduledAt =
      schedule.kind === 'scheduled' ? schedule.scheduledAt : pattern ? nextRunIn(pattern, new Date(), schedule.timeZone) : null;
    const row = await importsRepo(trx).insert({
      id: newId(),
      pipeline_id: pipeline._id,
      job_id: job.id,
      scheduled_at: scheduledAt,
      user_id: auth.userId,
      destinations: pipeline.dataSinks.map((s) => s.name),
    });
    await jobsRepo(trx).update(job.id, { next_run_at: scheduledAt });
    const say = (message: string): LogLine => ({ level: 'info', message, importId: row.id });
    if (scheduledAt === null) {
      await queue.sendRun(trx, row.id);
      await deps.logs.append(say(`Import queued by ${auth.userName}.`), trx);
    } else if (pattern) {
      const text = `Import repeats on '${schedule.repeatPattern}' (${schedule.timeZone}); next run ${scheduledAt.toISOString()}, set by ${auth.userName}.`;
      await deps.logs.append(say(text), trx);
    } else {
      await deps.logs.append(say(`Import scheduled for ${scheduledAt.toISOString()} by ${auth.userName}.`), trx);
    }
    return row.id;
  }

  function jobFields(schedule: Schedule, body: Pick<CreateImportBody, 'scheduledDate' | 'scheduledTime' | 'restartOnError'>) {
    return {
      job_kind: schedule.kind,
      repeat_pattern: schedule.repeatPattern,
      scheduled_date: schedule.kind === 'scheduled' ? (body.scheduledDate ?? null) : null,
      scheduled_time: schedule.kind === 'scheduled' ? (body.scheduledTime ?? null) : null,
      restart_on_error: body.restartOnError,
      timezone: schedule.timeZone,
    };
  }

  async function create(auth: AuthContext, body: CreateImportBody): Promise<JobCreated> {
    const schedule = checkSchedule(auth, body);
    const pipeline = await deps.pipelines.byId(auth, body.pipelineId);
    checkRunnable(pipeline);
    const countries = schedule.kind === 'sequential' ? await countriesFor(auth, pipeline, body.listPipelines) : [];
    await queue.ready();
    try {
      const answer = await db.transaction().execute(async (trx) => {
        // One request at a time per pipeline decides whether it is idle: two cannot both get in.
        await sql`select pg_advisory_xact_lock(hashtextextended(${`import:${pipeline._id}`}, 0))`.execute(trx);
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
        return { jobId: job.id, importId: await scheduleImport(trx, auth, pipeline, job, schedule) };
      });
      queue.nudge();
      return answer;
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(IMPORT_MESSAGES.scheduleExists);
      throw error;
    }
  }

  /**
   * A job the caller may replace or cancel, with its pipeline (null when the pipeline is gone): one
   * of a pipeline it may use (a gone pipeline's only for those who manage jobs), of a kind it may create.
   */
  async function jobFor(auth: AuthContext, jobId: string) {
    const job = await jobsRepo(db).byId(jobId);
    if (!job) throw notFound('Job not found.');
    const pipeline = job.pipeline_id ? await deps.pipelines.byId(auth, job.pipeline_id) : null;
    if (!pipeline && !hasAnyRole(auth.roles, ['manager', 'admin', 'super-admin'])) throw forbidden();
    if (!mayCreateJobKind(auth.roles, job.job_kind)) throw forbidden(IMPORT_MESSAGES.jobNotYours);
    return { job, pipeline };
  }

  /** An import the caller may act on: one of a pipeline it may use (managers also those of removed pipelines). */
  async function importFor(auth: AuthContext, importId: string) {
    const row = await importsRepo(db).byId(importId);
    if (!row) throw notFound('Import not found.');
    if (row.pipeline_id) await deps.pipelines.byId(auth, row.pipeline_id);
    else if (!hasAnyRole(auth.roles, ['manager', 'super-admin'])) throw forbidden();
    return row;
  }

  /** Removes a job's waiting imports (they have not run; nothing of them is kept). */
  async function dropWaiting(trx: Kysely<Database>, jobId: string, except?: string) {
    for (const row of await importsRepo(trx).pendingOfJob(jobId)) {
      if (row.id !== except) await importsRepo(trx).delete(row.id);
    }
  }

  /** Stops imports: waiting ones at once, running ones through their lease (any instance). */
  async function stop(ids: readonly { id: string; state: string }[]): Promise<void> {
    const running = ids.filter((i) => isRunningState(i.state)).map((i) => i.id);
    for (const { id, state } of ids) {
      if (state !== 'pending') continue;
      await db.transaction().execute(async (trx) => {
        const row = await importsRepo(trx).byId(id);
        if (row?.state !== 'pending') return;
        await importsRepo(trx).update(id, { state: 'aborted', success: false, end_at: new Date() });
        await deps.logs.append({ level: 'warn', message: IMPORT_MESSAGES.aborted, importId: id }, trx);
        const job = row.job_id ? await jobsRepo(trx).byId(row.job_id) : undefined;
        if (job && (job.job_kind === 'immediate' || job.job_kind === 'sequential')) {
          await jobsRepo(trx).update(job.id, { state: 'done' });
        }
      });
    }
    const children = [];
    for (const id of running) children.push(...(await importsRepo(db).children(id)).filter((c) => isRunningState(c.state)));
    const all = [...running, ...children.map((c) => c.id)];
    await leasesRepo(db).requestAbort(all);
    for (const id of all) runner.stopLocal(id, 'stop');
  }

  return {
    queue,
    runner,
    keeper,
    ...reads,

    /** Creates a job and its first import (POST /imports): now, later, repeated or a master's country pipelines in order. */
    create,

    /** Runs every country pipeline of a master, one after the other (POST /imports/runAllImport). */
    runAll(auth: AuthContext, pipelineId: string, restartOnError: boolean): Promise<JobCreated> {
      return create(auth, { pipelineId, kind: 'sequential', listPipelines: [], restartOnError });
    },

    /** Gives a job a new schedule (POST /imports/job); refused while its pipeline runs or waits to run an import. */
    async edit(auth: AuthContext, body: EditJobBody): Promise<JobCreated> {
      const schedule = checkSchedule(auth, body);
      const { job, pipeline } = await jobFor(auth, body.jobId);
      if (!pipeline) throw notFound('The pipeline of this job no longer exists.');
      checkRunnable(pipeline);
      const countries = schedule.kind === 'sequential' ? await countriesFor(auth, pipeline, body.listPipelines) : [];
      await queue.ready();
      try {
        const answer = await db.transaction().execute(async (trx) => {
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
          return { jobId: job.id, importId: await scheduleImport(trx, auth, pipeline, updated, schedule) };
        });
        queue.nudge();
        return answer;
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(IMPORT_MESSAGES.scheduleExists);
        throw error;
      }
    },

    /** Deletes a job and its waiting imports (DELETE /imports/job); a running import of it goes on. */
    async deleteJob(auth: AuthContext, jobId: string): Promise<void> {
      const { job } = await jobFor(auth, jobId);
      await db.transaction().execute(async (trx) => {
        await dropWaiting(trx, job.id);
        await jobsRepo(trx).delete(job.id);
      });
    },

    /**
     * Deletes an import record (DELETE /imports). A waiting import takes its job with it (the
     * wizard's cancel: 'The current import is cancelled.'); a running one must be stopped first.
     */
    async deleteImport(auth: AuthContext, importId: string): Promise<void> {
      const row = await importFor(auth, importId);
      if (isRunningState(row.state)) throw conflict(IMPORT_MESSAGES.deleteRunning);
      // Cancelling a waiting import removes its job: only for a job kind the caller may create.
      const job = row.state === 'pending' && row.job_id ? await jobsRepo(db).byId(row.job_id) : undefined;
      if (job && !mayCreateJobKind(auth.roles, job.job_kind)) throw forbidden(IMPORT_MESSAGES.jobNotYours);
      await db.transaction().execute(async (trx) => {
        for (const child of await importsRepo(trx).children(row.id)) await importsRepo(trx).delete(child.id);
        await importsRepo(trx).delete(row.id);
        if (row.state === 'pending' && row.job_id && !row.parent_import_id) {
          await dropWaiting(trx, row.job_id);
          await jobsRepo(trx).delete(row.job_id);
        }
      });
    },

    /** Stops one import (POST /imports/abort): a waiting one at once, a running one on whatever instance runs it. */
    async abort(auth: AuthContext, importId: string): Promise<{ importId: string; state: string }> {
      const row = await importFor(auth, importId);
      if (row.state !== 'pending' && !isRunningState(row.state)) throw conflict('The import is not running.');
      await stop([{ id: row.id, state: row.state }]);
      const after = await importsRepo(db).byId(row.id);
      return { importId: row.id, state: after?.state ?? row.state };
    },

    /** Stops every running import and every one waiting to run now (POST /imports/abort-all). */
    async abortAll(): Promise<true> {
      await stop(await importsRepo(db).activeIds(new Date()));
      return true;
    },

    /** One clock tick: queues the due runs of scheduled and repeat jobs. */
    tick: (now?: Date) => clockTick({ ctx, pipelines: deps.pipelines, queue }, now),

    /** Starts working runs, clock ticks and leases in this process (the server and `npm run worker`). */
    async startWorking(options: { concurrency?: number } = {}): Promise<void> {
      if (working) return;
      working = true;
      await queue.start({
        concurrency: options.concurrency ?? ctx.config.importConcurrency,
        pollMs: 1000,
        run: async (importId) => {
          await runner.run(importId);
        },
        clock: async () => {
          await clockTick({ ctx, pipelines: deps.pipelines, queue });
          // The clock ticks once a minute across every instance: the file sweep runs on the hour's.
          if (new Date().getUTCMinutes() === 0) await deps.uploads.sweepFiles();
        },
        onError: (error) => ctx.log.error({ err: error }, 'import queue error'),
      });
      keeper.start();
    },

    /** Stops working: no new runs; runs in hand end within the grace time or are handed back (failed or restarted). */
    async stopWorking(graceMs = 5000): Promise<void> {
      if (!working) {
        await queue.stop(0);
        return;
      }
      working = false;
      await queue.halt();
      const deadline = Date.now() + graceMs;
      while (runner.runningHere().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await runner.stopAll(graceMs);
      keeper.stop();
      await queue.stop(graceMs);
    },
  };
}

export type ImportsService = ReturnType<typeof importsService>;
