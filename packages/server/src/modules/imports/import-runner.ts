import crypto from 'node:crypto';
import os from 'node:os';
import { IMPORT_MESSAGES } from '@gdb/shared/imports/import-rules';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { newId } from '../../platform/ids.ts';
import { csvUploads } from './csv-upload.ts';
import { type ImportRow, importsRepo, type JobRow, jobsRepo, leasesRepo } from './imports.repo.ts';
import { logLine, MAX_ATTEMPTS, type Outcome, type RunnerDeps, type RunScope, type StopReason, sayTo } from './run-context.ts';
import { ended, finish, type RunEnd } from './run-finish.ts';
import { runSteps } from './run-steps.ts';

/** Seconds before a run waits again for a pipeline that is busy. */
const BUSY_RETRY_SECONDS = 15;

/** Runs imports: claims them, then runs their steps (see run-steps.ts) and finishes them, logging every step. */
export function importRunner(deps: RunnerDeps) {
  const db = deps.ctx.db.kysely;
  const workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const scope: RunScope = { deps, db, workerId, leased: new Set() };
  /** Runs in this process, by import id. */
  const local = new Map<string, AbortController>();
  const toldWaiting = new Set<string>();
  const say = (importId: string) => sayTo(deps.logs, importId);

  /** Takes a pending import for this worker; 'busy' when its pipeline already runs an import. */
  async function claim(importId: string, state: 'busy' | 'sequential'): Promise<ImportRow | 'gone' | 'busy'> {
    try {
      const claimed = await db.transaction().execute(async (trx) => {
        const row = await importsRepo(trx).claim(importId, state);
        if (!row) return 'gone' as const;
        await leasesRepo(trx).insert(importId, workerId);
        return row;
      });
      if (claimed !== 'gone') scope.leased.add(importId);
      return claimed;
    } catch (error) {
      if (isUniqueViolation(error)) return 'busy';
      throw error;
    }
  }

  /** A claimed import: its steps, then its end (the CSV files not stored whole leave nothing). */
  async function execute(row: ImportRow, job: JobRow | undefined, signal: AbortSignal): Promise<Outcome> {
    const csv = csvUploads(deps.files);
    let end: RunEnd;
    try {
      end = await runSteps(scope, row, signal, csv);
    } catch (error) {
      return ended(scope, row, job, signal, error);
    } finally {
      await csv.abortAll();
    }
    try {
      return (await finish(scope, row, job, end)) ? 'done' : 'lost';
    } catch (error) {
      return ended(scope, row, job, signal, error);
    }
  }

  /** Claims and runs one import; `outer` stops it with its parent. */
  async function runSingle(row: ImportRow, job: JobRow | undefined, outer?: AbortSignal): Promise<Outcome> {
    const controller = new AbortController();
    const onOuter = () => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onOuter);
    local.set(row.id, controller);
    try {
      const claimed = await claim(row.id, 'busy');
      if (claimed === 'gone' || claimed === 'busy') return claimed;
      return await execute(claimed, job, controller.signal);
    } finally {
      local.delete(row.id);
      // A run that could not write its end stops renewing its lease: the sweep ends it in 30 s.
      scope.leased.delete(row.id);
      outer?.removeEventListener('abort', onOuter);
    }
  }

  /** The country pipelines of a claimed sequential import, one after the other; answers its outcome. */
  async function runCountries(row: ImportRow, job: JobRow, signal: AbortSignal): Promise<Outcome> {
    const countries = job.list_pipelines;
    const earlier = await importsRepo(db).children(row.id);
    await say(row.id)('info', `Sequential import of ${countries.length} country pipelines started.`);
    let succeeded = 0;
    for (const [index, countryId] of countries.entries()) {
      if (signal.aborted) break;
      if (earlier.some((c) => c.pipeline_id === countryId && c.state === 'done')) {
        succeeded += 1;
        continue;
      }
      const outcome = await runCountry(row, job, countryId, `${index + 1} of ${countries.length}`, signal);
      if (outcome === 'lost') return 'lost';
      if (outcome === 'done') succeeded += 1;
      await importsRepo(db).updateHeld(row.id, workerId, {
        progress: Math.round(((index + 1) / Math.max(countries.length, 1)) * 100),
      });
    }
    if (signal.aborted) return ended(scope, row, job, signal, new Error('stopped'));
    const state = succeeded === countries.length ? 'done' : 'failed';
    const summary = `Sequential import ended: ${succeeded} of ${countries.length} country pipelines succeeded.`;
    const lines = [logLine(row.id, state === 'done' ? 'success' : 'error', summary)];
    return (await finish(scope, row, job, { state, lines })) ? state : 'lost';
  }

  /** Runs a master's chosen country pipelines one after the other (job kind sequential). */
  async function runSequence(row: ImportRow, job: JobRow): Promise<Outcome> {
    const controller = new AbortController();
    local.set(row.id, controller);
    try {
      const claimed = await claim(row.id, 'sequential');
      if (claimed === 'gone' || claimed === 'busy') return claimed;
      return await runCountries(claimed, job, controller.signal);
    } finally {
      local.delete(row.id);
      scope.leased.delete(row.id);
    }
  }

  /** Records the import of one country pipeline of a sequence; a pipeline gone fails it at once. */
  async function countryImport(parent: ImportRow, job: JobRow, countryId: string, position: string) {
    const country = await deps.pipelines.stored(countryId);
    const child = await importsRepo(db).insert({
      id: newId(),
      pipeline_id: country ? countryId : null,
      job_id: job.id,
      parent_import_id: parent.id,
      user_id: parent.user_id,
      destinations: country ? country.dataSinks.map((s) => s.name) : [],
    });
    await say(parent.id)('info', `Country pipeline ${country?.name ?? countryId} (${position}): import ${child.id}.`);
    if (!country) {
      await importsRepo(db).update(child.id, { state: 'failed', end_at: new Date() });
      await say(child.id)('error', 'The pipeline of this import no longer exists.');
      return null;
    }
    return child;
  }

  /** One country pipeline of a sequence, restarted on error when the job says so. */
  async function runCountry(parent: ImportRow, job: JobRow, countryId: string, position: string, signal: AbortSignal) {
    const child = await countryImport(parent, job, countryId, position);
    if (!child) return 'failed';
    for (;;) {
      const current = (await importsRepo(db).byId(child.id)) ?? child;
      const outcome = await runSingle(current, job, signal);
      if (outcome === 'busy') {
        await importsRepo(db).update(child.id, { state: 'failed', end_at: new Date() });
        await say(child.id)('error', IMPORT_MESSAGES.running);
        return 'failed';
      }
      const again = outcome === 'failed' && job.restart_on_error && !signal.aborted;
      const attempts = (await importsRepo(db).byId(child.id))?.attempts ?? MAX_ATTEMPTS;
      if (!again || attempts >= MAX_ATTEMPTS) return outcome;
      await importsRepo(db).update(child.id, { state: 'pending', end_at: null });
      await say(child.id)('warn', `The import starts again (attempt ${attempts + 1} of ${MAX_ATTEMPTS}).`);
    }
  }

  /** Runs a queued import (the run queue's handler); a run whose pipeline is busy is queued again. */
  async function run(importId: string): Promise<Outcome> {
    const row = await importsRepo(db).byId(importId);
    if (row?.state !== 'pending') return 'gone';
    const job = row.job_id ? await jobsRepo(db).byId(row.job_id) : undefined;
    const outcome =
      job?.job_kind === 'sequential' && !row.parent_import_id ? await runSequence(row, job) : await runSingle(row, job);
    if (outcome === 'busy') {
      if (!toldWaiting.has(importId)) {
        toldWaiting.add(importId);
        await say(importId)('info', 'Waiting: another import of this pipeline is running.');
      }
      await db.transaction().execute((trx) => deps.queue.sendRun(trx, importId, BUSY_RETRY_SECONDS));
    } else toldWaiting.delete(importId);
    return outcome;
  }

  return {
    workerId,
    run,

    /** Stops a run of this process at once; false when it does not run here. */
    stopLocal(importId: string, reason: StopReason = 'stop'): boolean {
      const controller = local.get(importId);
      if (!controller) return false;
      controller.abort(reason);
      return true;
    },

    /** Import ids this process runs now. */
    runningHere(): string[] {
      return [...local.keys()];
    },

    /** Import ids whose lease this process holds. */
    leasedHere(): string[] {
      return [...scope.leased];
    },

    /** Stops every run of this process (it is shutting down) and waits for them to end. */
    async stopAll(graceMs = 5000): Promise<void> {
      for (const controller of local.values()) controller.abort('shutdown');
      const deadline = Date.now() + graceMs;
      while (local.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    },
  };
}

export type ImportRunner = ReturnType<typeof importRunner>;
