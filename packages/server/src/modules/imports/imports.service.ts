import type { CreateImportBody, EditJobBody, JobCreated } from '@gdb/shared/imports/import.schemas';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { Database } from '../../platform/db/index.ts';
import type { ReferenceService } from '../reference/reference.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { clockTick } from './clock.ts';
import { importRunner } from './import-runner.ts';
import { abortImport, deleteImport, deleteJob, type StopsScope, stopImports } from './import-stops.ts';
import { importsReads } from './imports.reads.ts';
import { importsRepo, jobsRepo } from './imports.repo.ts';
import { createJobQueue, type JobQueue } from './job-queue.ts';
import { createJob, editJob } from './job-writes.ts';
import { leaseKeeper } from './lease-keeper.ts';
import { pipelineRemoval } from './pipeline-removal.ts';
import type { RunnerDeps } from './run-context.ts';
import { type FeedRunner, type FreeRun, resumeWaitingFeeds, runsWhenFree } from './run-when-free.ts';

export type { FeedRunner };

export type ImportsDeps = Omit<RunnerDeps, 'queue'> & {
  reference: ReferenceService;
  users: UsersService;
  /** Whom a resumed run of a feed's waiting uploads acts for (run-when-free.ts), checked as a call is. */
  feedRunner: FeedRunner;
};

/** This process's part in the work: the run queue's handler, the clock and the leases, started and stopped. */
function working(deps: ImportsDeps, queue: JobQueue, runner: ReturnType<typeof importRunner>, resume: () => Promise<number>) {
  const { ctx } = deps;
  const keeper = leaseKeeper({
    ctx,
    logs: deps.logs,
    uploads: deps.uploads,
    queue,
    workerId: runner.workerId,
    leasedHere: () => runner.leasedHere(),
    stopLocal: (id, reason) => runner.stopLocal(id, reason),
  });
  let started = false;
  return {
    keeper,
    /** Starts working runs, clock ticks and leases in this process (the server and `npm run worker`). */
    async start(options: { concurrency?: number } = {}): Promise<void> {
      if (started) return;
      started = true;
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
      await resume().catch((err: unknown) => ctx.log.warn({ err }, 'imports: resuming the runs of waiting uploads failed'));
    },
    /** Stops working: no new runs; runs in hand end within the grace time or are handed back (failed or restarted). */
    async stop(graceMs = 5000): Promise<void> {
      if (!started) {
        await queue.stop(0);
        return;
      }
      started = false;
      await queue.halt();
      const deadline = Date.now() + graceMs;
      while (runner.runningHere().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await runner.stopAll(graceMs);
      keeper.stop();
      await queue.stop(graceMs);
    },
  };
}

/** Imports and jobs: create, edit, delete, stop; the run queue, the clock and the leases of this process. */
export function importsService(deps: ImportsDeps) {
  const { ctx } = deps;
  const queue = createJobQueue(ctx.db);
  const runner = importRunner({ ...deps, queue });
  const scope: StopsScope = {
    pipelines: deps.pipelines,
    logs: deps.logs,
    db: ctx.db.kysely,
    queue,
    stopLocal: (id, reason) => runner.stopLocal(id, reason),
  };
  const create = (auth: AuthContext, body: CreateImportBody): Promise<JobCreated> => createJob(scope, auth, body);
  const whenFree = runsWhenFree(scope);
  const resume = () =>
    resumeWaitingFeeds(scope, {
      runner: deps.feedRunner,
      whenFree,
      feeds: () => deps.uploads.waitingSources(),
      warn: (err, pipelineId) => ctx.log.warn({ err, pipelineId }, 'imports: a run of waiting uploads could not be asked for'),
    });
  const work = working(deps, queue, runner, resume);

  return {
    queue,
    runner,
    keeper: work.keeper,
    ...importsReads(deps),
    create,
    /**
     * Makes sure a run of the pipeline takes the uploads stored before this call (an endpoint's
     * call, a listener's batch): the run waiting now, shared by every call while the pipeline is
     * busy, or a new immediate import, queued behind the running one (run-when-free.ts).
     */
    runWhenFree: (auth: AuthContext, pipelineId: string): Promise<FreeRun> => whenFree(auth, pipelineId),
    /** Asks a run for every pipeline whose endpoint or listener uploads wait, none imported yet (done at start). */
    resumeWaitingFeeds: resume,
    /** Runs every country pipeline of a master, one after the other (POST /imports/runAllImport). */
    runAll: (auth: AuthContext, pipelineId: string, restartOnError: boolean): Promise<JobCreated> =>
      create(auth, { pipelineId, kind: 'sequential', listPipelines: [], restartOnError }),
    edit: (auth: AuthContext, body: EditJobBody): Promise<JobCreated> => editJob(scope, auth, body),
    deleteJob: (auth: AuthContext, jobId: string) => deleteJob(scope, auth, jobId),
    deleteImport: (auth: AuthContext, importId: string) => deleteImport(scope, auth, importId),
    abort: (auth: AuthContext, importId: string) => abortImport(scope, auth, importId),
    /** Stops every running import and every one waiting to run now (POST /imports/abort-all). */
    async abortAll(): Promise<true> {
      await stopImports(scope, await importsRepo(ctx.db.kysely).activeIds(new Date()));
      return true;
    },
    /**
     * Hands the active scheduled and repeat jobs of a pipeline version, and their waiting imports,
     * to another version of it (a pipeline update that takes its jobs along), inside the caller's
     * transaction when one is given. Answers the ids of the jobs moved.
     */
    async moveSchedules(fromPipelineId: string, toPipelineId: string, k: Kysely<Database> = ctx.db.kysely): Promise<string[]> {
      const moved = await jobsRepo(k).moveSchedules(fromPipelineId, toPipelineId);
      await importsRepo(k).movePendingOfJobs(moved, toPipelineId);
      return moved;
    },
    /** What deleting pipelines asks of imports and jobs: refused while one runs or waits; their schedules go with them. */
    pipelineRemoval: pipelineRemoval(ctx.db.kysely),
    /** One clock tick: queues the due runs of scheduled and repeat jobs. */
    tick: (now?: Date) => clockTick({ ctx, pipelines: deps.pipelines, queue }, now),
    startWorking: work.start,
    stopWorking: work.stop,
  };
}

export type ImportsService = ReturnType<typeof importsService>;
