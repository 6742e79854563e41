import { resolveSchedule } from '@gdb/shared/imports/import-rules';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { Database } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';
import { importsRepo, jobsRepo } from './imports.repo.ts';
import { checkRunnable, type JobsScope, jobFields, scheduleImport, writeJob } from './job-writes.ts';

/** The run that takes a pipeline's uploads stored before it was asked for. */
export interface FreeRun {
  importId: string;
  /** True when it waits for the import that runs or waits now (it starts as soon as that one ends). */
  queued: boolean;
}

/**
 * The import of a pipeline that waits to run now and has not yet gathered its inputs (it is
 * pending: a run moves it to running before it reads any upload), oldest first.
 */
async function waitingRunOf(k: Kysely<Database>, pipelineId: string): Promise<string | undefined> {
  const now = new Date();
  const row = await k
    .selectFrom('imports')
    .select('id')
    .where('pipeline_id', '=', pipelineId)
    .where('state', '=', 'pending')
    .where('parent_import_id', 'is', null)
    .where((eb) => eb.or([eb('scheduled_at', 'is', null), eb('scheduled_at', '<=', now)]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/** Under the pipeline's import lock: the run that waits to run now, or a new one (see runsWhenFree). */
async function makeRun(s: JobsScope, auth: AuthContext, pipelineId: string): Promise<FreeRun> {
  const pipeline = await s.pipelines.byId(auth, pipelineId);
  checkRunnable(pipeline);
  return writeJob(s, async (trx) => {
    await importsRepo(trx).lockPipeline(pipeline._id);
    const other = await waitingRunOf(trx, pipeline._id);
    if (other) return { importId: other, queued: true };
    const running = (await importsRepo(trx).busyOf(pipeline._id, new Date())) === 'running';
    const schedule = resolveSchedule({ kind: 'immediate' });
    if (!schedule.ok) throw new Error(schedule.message);
    const body = { restartOnError: false };
    const job = await jobsRepo(trx).insert({
      id: newId(),
      pipeline_id: pipeline._id,
      ...jobFields(schedule, body),
      scheduled_by: auth.userId,
      list_pipelines: [],
      state: 'active',
    });
    return { importId: await scheduleImport(s, trx, auth, { pipeline, job, schedule }), queued: running };
  });
}

/**
 * Makes sure a run of the pipeline takes the uploads stored before it is asked (an endpoint's
 * call, a listener's batch): the import that waits to run now when there is one (many calls while
 * the pipeline is busy share one next run), else a new immediate import, queued behind the one
 * that runs, if any (the runner starts it when that one ends: run-finish wakes it). The database
 * decides, under the pipeline's import lock, so instances agree; the caller's rights on the
 * pipeline are checked as for any import it starts. Within one instance, the calls of a pipeline
 * that come while one of them makes its next run wait for it, then look for the waiting run (a
 * run that started meanwhile is not taken: they make the next one): a burst of calls takes the
 * lock once, not once each.
 */
export function runsWhenFree(s: JobsScope) {
  const making = new Map<string, Promise<FreeRun>>();
  return async (auth: AuthContext, pipelineId: string): Promise<FreeRun> => {
    const before = making.get(pipelineId);
    if (before) await before.catch(() => undefined);
    // Most calls while the pipeline is busy find the waiting run without taking the lock.
    const waiting = await waitingRunOf(s.db, pipelineId);
    if (waiting) return { importId: waiting, queued: true };
    const made = makeRun(s, auth, pipelineId);
    making.set(pipelineId, made);
    try {
      return await made;
    } finally {
      if (making.get(pipelineId) === made) making.delete(pipelineId);
    }
  };
}

/** A source upload switched on and not yet imported, of a pipeline, with who stored it. */
export interface WaitingFeed {
  pipelineId: string;
  dataSubKind: string;
  createdBy: string | null;
}

/**
 * Whom a run of a feed's waiting uploads acts for: the one who stored them (an endpoint's or a
 * listener's publisher) while they are active and may still change the pipeline through their
 * badges, with a run's rights; undefined otherwise. Required: a resumed run asks it as a call would.
 */
export type FeedRunner = (userId: string, pipeline: PipelineView) => Promise<AuthContext | undefined>;

/**
 * After a restart: every pipeline whose endpoint or listener source has uploads switched on and not
 * yet imported gets its run (`whenFree`, see runsWhenFree), acting for the last who stored one while
 * `runner` lets them. Answers the number of pipelines asked for.
 */
export async function resumeWaitingFeeds(
  s: JobsScope,
  deps: {
    runner: FeedRunner;
    whenFree: ReturnType<typeof runsWhenFree>;
    feeds(): Promise<WaitingFeed[]>;
    warn(err: unknown, pipelineId: string): void;
  },
): Promise<number> {
  const byPipeline = new Map<string, WaitingFeed>();
  for (const feed of await deps.feeds()) byPipeline.set(feed.pipelineId, feed);
  let asked = 0;
  for (const feed of byPipeline.values()) {
    const pipeline = await s.pipelines.stored(feed.pipelineId);
    const source = pipeline?.dataSources.find((d) => d.dataSubKind === feed.dataSubKind);
    if (!pipeline || (source?.connectorType !== 'endpoint' && source?.connectorType !== 'listener')) continue;
    const auth = feed.createdBy ? await deps.runner(feed.createdBy, pipeline) : undefined;
    if (!auth) continue;
    try {
      await deps.whenFree(auth, feed.pipelineId);
      asked += 1;
    } catch (err) {
      deps.warn(err, feed.pipelineId);
    }
  }
  return asked;
}
