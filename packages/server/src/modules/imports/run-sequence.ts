import { IMPORT_MESSAGES } from '@gdb/shared/imports/import-rules';
import { newId } from '../../platform/ids.ts';
import { type ImportRow, importsRepo, type JobRow } from './imports.repo.ts';
import { logLine, MAX_ATTEMPTS, type Outcome, type Runner, sayTo } from './run-context.ts';
import { ended, finish } from './run-finish.ts';
import { claim, runSingle } from './run-single.ts';

/** Records the import of one country pipeline of a sequence; a pipeline gone fails it at once. */
async function countryImport(r: Runner, parent: ImportRow, job: JobRow, countryId: string, position: string) {
  const country = await r.deps.pipelines.stored(countryId);
  const child = await importsRepo(r.db).insert({
    id: newId(),
    pipeline_id: country ? countryId : null,
    job_id: job.id,
    parent_import_id: parent.id,
    user_id: parent.user_id,
    destinations: country ? country.dataSinks.map((s) => s.name) : [],
  });
  await sayTo(r.deps.logs, parent.id)(
    'info',
    `Country pipeline ${country?.name ?? countryId} (${position}): import ${child.id}.`,
  );
  if (!country) {
    await importsRepo(r.db).update(child.id, { state: 'failed', end_at: new Date() });
    await sayTo(r.deps.logs, child.id)('error', 'The pipeline of this import no longer exists.');
    return null;
  }
  return child;
}

/** One country pipeline of a sequence, restarted on error when the job says so. */
async function runCountry(r: Runner, parent: ImportRow, job: JobRow, countryId: string, position: string, signal: AbortSignal) {
  const child = await countryImport(r, parent, job, countryId, position);
  if (!child) return 'failed';
  const imports = importsRepo(r.db);
  const say = sayTo(r.deps.logs, child.id);
  for (;;) {
    const current = (await imports.byId(child.id)) ?? child;
    const outcome = await runSingle(r, current, job, signal);
    if (outcome === 'busy') {
      await imports.update(child.id, { state: 'failed', end_at: new Date() });
      await say('error', IMPORT_MESSAGES.running);
      return 'failed';
    }
    const again = outcome === 'failed' && job.restart_on_error && !signal.aborted;
    const attempts = (await imports.byId(child.id))?.attempts ?? MAX_ATTEMPTS;
    if (!again || attempts >= MAX_ATTEMPTS) return outcome;
    await imports.update(child.id, { state: 'pending', end_at: null });
    await say('warn', `The import starts again (attempt ${attempts + 1} of ${MAX_ATTEMPTS}).`);
  }
}

/** The country pipelines of a claimed sequential import, one after the other; answers its outcome. */
async function runCountries(r: Runner, row: ImportRow, job: JobRow, signal: AbortSignal): Promise<Outcome> {
  const countries = job.list_pipelines;
  const earlier = await importsRepo(r.db).children(row.id);
  await sayTo(r.deps.logs, row.id)('info', `Sequential import of ${countries.length} country pipelines started.`);
  let succeeded = 0;
  for (const [index, countryId] of countries.entries()) {
    if (signal.aborted) break;
    if (earlier.some((c) => c.pipeline_id === countryId && c.state === 'done')) {
      succeeded += 1;
      continue;
    }
    const outcome = await runCountry(r, row, job, countryId, `${index + 1} of ${countries.length}`, signal);
    if (outcome === 'lost') return 'lost';
    if (outcome === 'done') succeeded += 1;
    await importsRepo(r.db).updateHeld(row.id, r.workerId, {
      progress: Math.round(((index + 1) / Math.max(countries.length, 1)) * 100),
    });
  }
  if (signal.aborted) return ended(r, row, job, signal, new Error('stopped'));
  const state = succeeded === countries.length ? 'done' : 'failed';
  const summary = `Sequential import ended: ${succeeded} of ${countries.length} country pipelines succeeded.`;
  const lines = [logLine(row.id, state === 'done' ? 'success' : 'error', summary)];
  return (await finish(r, row, job, { state, lines })) ? state : 'lost';
}

/** Runs a master's chosen country pipelines one after the other (job kind sequential). */
export async function runSequence(r: Runner, row: ImportRow, job: JobRow): Promise<Outcome> {
  const controller = new AbortController();
  r.local.set(row.id, controller);
  try {
    const claimed = await claim(r, row.id, 'sequential');
    if (claimed === 'gone' || claimed === 'busy') return claimed;
    return await runCountries(r, claimed, job, controller.signal);
  } finally {
    r.local.delete(row.id);
    r.leased.delete(row.id);
  }
}
