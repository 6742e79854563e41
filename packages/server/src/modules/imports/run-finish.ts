import { IMPORT_MESSAGES } from '@gdb/shared/imports/import-rules';
import { AppError } from '../../platform/http/errors.ts';
import type { DataStoreTarget } from '../datastore/datastore.service.ts';
import { DataStoreError } from '../datastore/datastore.service.ts';
import type { LogLine } from '../logs/logs.service.ts';
import { logsOfFailure } from './component-runner.ts';
import { type ImportRow, importsRepo, type JobRow, jobsRepo, leasesRepo } from './imports.repo.ts';
import { logLine, MAX_ATTEMPTS, type Outcome, type RunScope, type StopReason } from './run-context.ts';
import { RunStepError } from './run-errors.ts';
import type { Output } from './run-sinks.ts';

/** Seconds before a run that failed with restartOnError starts again. */
const RESTART_DELAY_SECONDS = 5;

/** How a run ends: its final state (pending: to run again), the lines that say so, the data-store targets of a done run. */
export interface RunEnd {
  state: 'done' | 'failed' | 'aborted' | 'pending';
  lines: LogLine[];
  targets?: Output[];
  /** The source uploads a done run took, marked imported by it in the final transaction. */
  taken?: readonly string[];
}

/** Why the run's signal stopped it. */
function reasonOf(signal: AbortSignal): StopReason {
  const r: unknown = signal.reason;
  return r === 'shutdown' || r === 'lost' ? r : 'stop';
}

/** The message a failure shows in the import's logs: its own when it is meant for people. */
export function failureMessage(error: unknown): string {
  if (error instanceof RunStepError || error instanceof DataStoreError || error instanceof AppError) return error.message;
  return IMPORT_MESSAGES.unexpected;
}

/**
 * How a run that did not succeed ends: aborted when stopped, restarted when its job restarts on
 * error and attempts are left, else failed; with the component's lines before the failure.
 */
export function failureEnd(
  row: Pick<ImportRow, 'id' | 'attempts' | 'parent_import_id'>,
  job: Pick<JobRow, 'restart_on_error'> | undefined,
  reason: 'stop' | 'shutdown' | null,
  error: unknown,
): RunEnd {
  if (reason === 'stop') return { state: 'aborted', lines: [logLine(row.id, 'warn', IMPORT_MESSAGES.aborted)] };
  const lines = logsOfFailure(error).map((l) => logLine(row.id, l.level, l.message));
  if (reason === 'shutdown') lines.push(logLine(row.id, 'error', 'The server stopped during the import.'));
  else lines.push(logLine(row.id, 'error', failureMessage(error)));
  if (!row.parent_import_id && job?.restart_on_error === true && row.attempts < MAX_ATTEMPTS) {
    lines.push(logLine(row.id, 'warn', `The import starts again (attempt ${row.attempts + 1} of ${MAX_ATTEMPTS}).`));
    return { state: 'pending', lines };
  }
  lines.push(logLine(row.id, 'error', 'Import failed.'));
  return { state: 'failed', lines };
}

/** Upserts a done run's data-store targets inside the final transaction; answers the lines that say so. */
async function writeTargets(scope: RunScope, trx: RunScope['db'], importId: string, targets: readonly Output[]) {
  const lines: LogLine[] = [];
  for (const { sink, rows } of targets) {
    if (!sink.target) continue;
    const target: DataStoreTarget = sink.target;
    const count = await scope.deps.datastore.upsert(trx, target, rows, importId);
    lines.push(logLine(importId, 'success', `Data store ${target.table}: ${count} rows upserted.`, sink.name));
  }
  return lines;
}

/**
 * Finishes a run: gives up the lease and writes the final state, data-store rows, output files'
 * state and logs in one transaction. False when the lease was lost (another instance declared
 * this worker gone): then nothing is written.
 */
export async function finish(scope: RunScope, row: ImportRow, job: JobRow | undefined, end: RunEnd): Promise<boolean> {
  const { deps } = scope;
  const released = await scope.db.transaction().execute(async (trx) => {
    // Under the pipeline's import lock: a run refused meanwhile because this one ran either sees
    // it ended, or has queued its message again before this end makes the waiting runs due now.
    if (row.pipeline_id) await importsRepo(trx).lockPipeline(row.pipeline_id);
    if (!(await leasesRepo(trx).release(row.id, scope.workerId))) return false;
    const lines = [...end.lines, ...(await writeTargets(scope, trx, row.id, end.targets ?? []))];
    const final = end.state !== 'pending';
    await importsRepo(trx).update(row.id, {
      state: end.state,
      success: end.state === 'done',
      progress: end.state === 'done' ? 100 : undefined,
      end_at: final ? new Date() : null,
    });
    await deps.uploads.settleOutputs(trx, row.id, end.state === 'done');
    if (end.state === 'done') await deps.uploads.markImported(trx, row.id, end.taken ?? []);
    // The pipeline is free: an import waiting for it starts at the next poll, not after its delay.
    if (row.pipeline_id) await deps.queue.wakeWaitingRuns(trx, row.pipeline_id);
    if (final && job && !row.parent_import_id && job.job_kind !== 'repeat') {
      await jobsRepo(trx).update(job.id, { state: 'done' });
    }
    if (end.state === 'pending') await deps.queue.sendRun(trx, row.id, RESTART_DELAY_SECONDS);
    await deps.logs.append(lines, trx);
    return true;
  });
  scope.leased.delete(row.id);
  deps.queue.nudge();
  return released;
}

/** Ends a run that did not succeed (see `failureEnd`); 'lost' when its lease was taken. */
export async function ended(
  scope: RunScope,
  row: ImportRow,
  job: JobRow | undefined,
  signal: AbortSignal,
  error: unknown,
): Promise<Outcome> {
  const reason = signal.aborted ? reasonOf(signal) : null;
  if (reason === 'lost') return 'lost';
  if (reason === null && failureMessage(error) === IMPORT_MESSAGES.unexpected) {
    scope.deps.ctx.log.error({ err: error, importId: row.id }, 'import run failed');
  }
  const end = failureEnd(row, job, reason, error);
  if (!(await finish(scope, row, job, end))) return 'lost';
  return end.state === 'pending' ? 'restarted' : end.state === 'aborted' ? 'aborted' : 'failed';
}
