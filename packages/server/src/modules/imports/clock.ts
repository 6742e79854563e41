import { parseRepeatPattern } from '@gdb/shared/imports/repeat-pattern';
import { nextRunIn } from '@gdb/shared/imports/zoned-time';
import type { AppContext } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import { importsRepo, type JobRow, jobsRepo } from './imports.repo.ts';
import type { JobQueue } from './job-queue.ts';

export interface ClockDeps {
  ctx: AppContext;
  pipelines: PipelinesService;
  queue: JobQueue;
}

/**
 * One tick of the clock (every minute, from pg-boss's cron): each scheduled or repeat job whose
 * next run is due queues its waiting import and, for a repeat job, records the next one. The job
 * moves on only if its next run is still the one this tick saw, so a due time runs once however
 * many instances tick; a due time missed while no instance ran runs once, late.
 */
export async function clockTick(deps: ClockDeps, now = new Date()): Promise<number> {
  const db = deps.ctx.db.kysely;
  await deps.queue.ready();
  let fired = 0;
  for (const job of await jobsRepo(db).due(now)) {
    if (await fire(deps, job, now)) fired += 1;
  }
  if (fired > 0) deps.queue.nudge();
  return fired;
}

async function fire(deps: ClockDeps, job: JobRow, now: Date): Promise<boolean> {
  const due = job.next_run_at;
  if (!due) return false;
  const pattern = job.job_kind === 'repeat' ? parseRepeatPattern(job.repeat_pattern) : null;
  const next = pattern ? nextRunIn(pattern, now, job.timezone) : null;
  const pipeline = job.pipeline_id ? await deps.pipelines.stored(job.pipeline_id) : undefined;
  const destinations = pipeline ? pipeline.dataSinks.map((s) => s.name) : [];
  return deps.ctx.db.kysely.transaction().execute(async (trx) => {
    const moved = await jobsRepo(trx).advance(job.id, due, {
      next_run_at: next,
      last_executed_at: now,
      state: next ? 'active' : 'done',
    });
    if (!moved) return false;
    const imports = importsRepo(trx);
    // The import waiting for this due time; when it was stopped, this due time is skipped.
    const waiting = (await imports.pendingOfJob(job.id)).find((i) => i.scheduled_at?.getTime() === due.getTime());
    if (waiting) await deps.queue.sendRun(trx, waiting.id);
    if (next && pipeline) {
      await imports.insert({
        id: newId(),
        pipeline_id: pipeline._id,
        job_id: job.id,
        scheduled_at: next,
        user_id: job.scheduled_by,
        destinations,
      });
    }
    return waiting !== undefined;
  });
}
