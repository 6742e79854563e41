import { isUniqueViolation } from '../../platform/db/errors.ts';
import { csvUploads } from './csv-upload.ts';
import { type ImportRow, importsRepo, type JobRow, leasesRepo } from './imports.repo.ts';
import type { Outcome, Runner } from './run-context.ts';
import { ended, finish, type RunEnd } from './run-finish.ts';
import { runSteps } from './run-steps.ts';

/** Takes a pending import for this worker; 'busy' when its pipeline already runs an import. */
export async function claim(r: Runner, importId: string, state: 'busy' | 'sequential'): Promise<ImportRow | 'gone' | 'busy'> {
  try {
    const claimed = await r.db.transaction().execute(async (trx) => {
      const row = await importsRepo(trx).claim(importId, state);
      if (!row) return 'gone' as const;
      await leasesRepo(trx).insert(importId, r.workerId);
      return row;
    });
    if (claimed !== 'gone') r.leased.add(importId);
    return claimed;
  } catch (error) {
    if (isUniqueViolation(error)) return 'busy';
    throw error;
  }
}

/** A claimed import: its steps, then its end (the CSV files not stored whole leave nothing). */
async function execute(r: Runner, row: ImportRow, job: JobRow | undefined, signal: AbortSignal): Promise<Outcome> {
  const csv = csvUploads(r.deps.files);
  let end: RunEnd;
  try {
    end = await runSteps(r, row, signal, csv);
  } catch (error) {
    return ended(r, row, job, signal, error);
  } finally {
    await csv.abortAll();
  }
  try {
    return (await finish(r, row, job, end)) ? 'done' : 'lost';
  } catch (error) {
    return ended(r, row, job, signal, error);
  }
}

/** Claims and runs one import; `outer` stops it with its parent. */
export async function runSingle(r: Runner, row: ImportRow, job: JobRow | undefined, outer?: AbortSignal): Promise<Outcome> {
  const controller = new AbortController();
  const onOuter = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter);
  r.local.set(row.id, controller);
  try {
    const claimed = await claim(r, row.id, 'busy');
    if (claimed === 'gone' || claimed === 'busy') return claimed;
    return await execute(r, claimed, job, controller.signal);
  } finally {
    r.local.delete(row.id);
    // A run that could not write its end stops renewing its lease: the sweep ends it in 30 s.
    r.leased.delete(row.id);
    outer?.removeEventListener('abort', onOuter);
  }
}
