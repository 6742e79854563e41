import crypto from 'node:crypto';
import os from 'node:os';
import { importsRepo, jobsRepo } from './imports.repo.ts';
import { type Outcome, type Runner, type RunnerDeps, type StopReason, sayTo } from './run-context.ts';
import { runSequence } from './run-sequence.ts';
import { runSingle } from './run-single.ts';

/** Seconds before a run waits again for a pipeline that is busy. */
const BUSY_RETRY_SECONDS = 15;
/** Seconds before a run tries again when the pipeline became free while it was refused. */
const FREED_RETRY_SECONDS = 1;

/** Runs a queued import (the run queue's handler); a run whose pipeline is busy is queued again, said once. */
async function runQueued(r: Runner, toldWaiting: Set<string>, importId: string): Promise<Outcome> {
  const row = await importsRepo(r.db).byId(importId);
  if (row?.state !== 'pending') return 'gone';
  const job = row.job_id ? await jobsRepo(r.db).byId(row.job_id) : undefined;
  const outcome =
    job?.job_kind === 'sequential' && !row.parent_import_id ? await runSequence(r, row, job) : await runSingle(r, row, job);
  if (outcome === 'busy') {
    if (!toldWaiting.has(importId)) {
      toldWaiting.add(importId);
      await sayTo(r.deps.logs, importId)('info', 'Waiting: another import of this pipeline is running.');
    }
    await r.db.transaction().execute(async (trx) => {
      // The run that held the pipeline may have ended since the claim failed, before this message
      // was back in the queue for its end to make it due now: then it comes back at once. Under
      // the pipeline's import lock, which a run's end takes too (run-finish.ts).
      const pipelineId = row.pipeline_id;
      if (pipelineId) await importsRepo(trx).lockPipeline(pipelineId);
      const still = pipelineId ? (await importsRepo(trx).busyOf(pipelineId, new Date())) === 'running' : false;
      await r.deps.queue.sendRun(trx, importId, still ? BUSY_RETRY_SECONDS : FREED_RETRY_SECONDS);
    });
  } else toldWaiting.delete(importId);
  return outcome;
}

/**
 * Runs imports: claims them, runs their steps (run-steps.ts) and finishes them (run-finish.ts),
 * a master's sequence one country pipeline after the other (run-sequence.ts).
 */
export function importRunner(deps: RunnerDeps) {
  const workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const r: Runner = { deps, db: deps.ctx.db.kysely, workerId, leased: new Set(), local: new Map() };
  const toldWaiting = new Set<string>();

  return {
    workerId,

    /** Runs a queued import (the run queue's handler). */
    run: (importId: string): Promise<Outcome> => runQueued(r, toldWaiting, importId),

    /** Stops a run of this process at once; false when it does not run here. */
    stopLocal(importId: string, reason: StopReason = 'stop'): boolean {
      const controller = r.local.get(importId);
      if (!controller) return false;
      controller.abort(reason);
      return true;
    },

    /** Import ids this process runs now. */
    runningHere(): string[] {
      return [...r.local.keys()];
    },

    /** Import ids whose lease this process holds. */
    leasedHere(): string[] {
      return [...r.leased];
    },

    /** Stops every run of this process (it is shutting down) and waits for them to end. */
    async stopAll(graceMs = 5000): Promise<void> {
      for (const controller of r.local.values()) controller.abort('shutdown');
      const deadline = Date.now() + graceMs;
      while (r.local.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}
