import { isRunningState } from '@gdb/shared/imports/import-rules';
import type { AppContext } from '../../platform/context.ts';
import type { LogsService } from '../logs/logs.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { importsRepo, jobsRepo, leasesRepo } from './imports.repo.ts';
import type { JobQueue } from './job-queue.ts';
import { RunStepError } from './run-errors.ts';
import { failureEnd } from './run-finish.ts';

/**
 * A lease not renewed for `importLeaseMs` belongs to a worker that is gone; a worker renews its
 * own every sixth of that and looks for others' stale ones every third.
 */
function leaseTimes(leaseMs: number) {
  return { staleMs: leaseMs, heartbeatMs: Math.round(leaseMs / 6), sweepMs: Math.round(leaseMs / 3) };
}

export interface LeaseKeeperDeps {
  ctx: AppContext;
  logs: LogsService;
  uploads: Pick<UploadsService, 'settleOutputs'>;
  queue: JobQueue;
  workerId: string;
  /** Import ids whose lease this process holds. */
  leasedHere: () => string[];
  /** Stops a local run: its lease is gone, or someone asked to stop it. */
  stopLocal: (importId: string, reason: 'stop' | 'lost') => void;
}

/**
 * Ends the import of a lease whose worker is gone, as a run that failed ends (`failureEnd`):
 * aborted when its stop was asked, queued again when its job restarts on error, else failed.
 * False when the lease came back to life meanwhile.
 */
async function recover(deps: LeaseKeeperDeps, importId: string, workerId: string, before: Date): Promise<boolean> {
  return deps.ctx.db.kysely.transaction().execute(async (trx) => {
    const lease = await leasesRepo(trx).takeStale(importId, workerId, before);
    if (!lease) return false;
    const row = await importsRepo(trx).byId(importId);
    if (!row || !isRunningState(row.state)) return true;
    const job = row.job_id ? await jobsRepo(trx).byId(row.job_id) : undefined;
    const gone = new RunStepError('The worker running this import stopped.');
    const { state, lines } = failureEnd(row, job, lease.abort_requested ? 'stop' : null, gone);
    await importsRepo(trx).update(importId, { state, success: false, end_at: state === 'pending' ? null : new Date() });
    await deps.uploads.settleOutputs(trx, importId, false);
    if (row.pipeline_id) await deps.queue.wakeWaitingRuns(trx, row.pipeline_id);
    if (state === 'pending') await deps.queue.sendRun(trx, importId);
    else if (job && !row.parent_import_id && job.job_kind !== 'repeat') {
      await jobsRepo(trx).update(job.id, { state: 'done' });
    }
    await deps.logs.append(lines, trx);
    return true;
  });
}

/**
 * Keeps a worker's leases alive and passes on stop requests; takes over leases nobody renews (their
 * worker is gone): their imports fail, or start again when their job restarts on error.
 */
export function leaseKeeper(deps: LeaseKeeperDeps) {
  const db = deps.ctx.db.kysely;
  const times = leaseTimes(deps.ctx.config.importLeaseMs);
  let heartbeatTimer: NodeJS.Timeout | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;

  /** Renews this worker's leases; stops runs whose lease is gone or whose stop was asked. */
  async function heartbeat(): Promise<void> {
    const ids = deps.leasedHere();
    if (ids.length === 0) return;
    const held = await leasesRepo(db).heartbeat(deps.workerId, ids);
    const byId = new Map(held.map((h) => [h.import_id, h.abort_requested]));
    const still = new Set(deps.leasedHere());
    for (const id of ids) {
      const abort = byId.get(id);
      if (abort === true) deps.stopLocal(id, 'stop');
      // A lease that vanished while this process still holds the run was taken by another worker.
      else if (abort === undefined && still.has(id)) deps.stopLocal(id, 'lost');
    }
  }

  /**
   * Takes over every stale lease but those of this process's live runs (a lease of this process
   * that no run renews is stale too); answers how many imports it ended or restarted.
   */
  async function sweep(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - times.staleMs);
    let count = 0;
    for (const lease of await leasesRepo(db).stale(before, deps.leasedHere())) {
      if (await recover(deps, lease.import_id, lease.worker_id, before)) count += 1;
    }
    if (count > 0) deps.queue.nudge();
    return count;
  }

  const report = (what: string) => (error: unknown) => deps.ctx.log.error({ err: error }, what);

  return {
    heartbeat,
    sweep,
    start(): void {
      heartbeatTimer ??= setInterval(() => void heartbeat().catch(report('import heartbeat failed')), times.heartbeatMs);
      sweepTimer ??= setInterval(() => void sweep().catch(report('import lease sweep failed')), times.sweepMs);
      heartbeatTimer.unref();
      sweepTimer.unref();
      void sweep().catch(report('import lease sweep failed'));
    },
    stop(): void {
      clearInterval(heartbeatTimer);
      clearInterval(sweepTimer);
      heartbeatTimer = undefined;
      sweepTimer = undefined;
    },
  };
}
