import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { LogLine } from '../logs/logs.service.ts';
import type { CsvUploads } from './csv-upload.ts';
import { type ImportRow, importsRepo } from './imports.repo.ts';
import { componentToRun, runComponent } from './run-component.ts';
import { logLine, MAX_ATTEMPTS, type RunScope, type Say, sayTo } from './run-context.ts';
import { RunStepError } from './run-errors.ts';
import type { RunEnd } from './run-finish.ts';
import { gatherInputs } from './run-inputs.ts';
import { writeSinks } from './run-sinks.ts';

const NIL_USER = '00000000-0000-0000-0000-000000000000';

/** The user a run acts for, with the rights it had when the import was asked for. */
export function runAuth(row: Pick<ImportRow, 'user_id'>): AuthContext {
  return { userId: row.user_id ?? NIL_USER, sessionId: 'import-run', userName: 'import', roles: ['super-admin'] };
}

/** The run's pipeline as stored now, said started in the logs; a pipeline gone fails the run. */
async function startRun(scope: RunScope, row: ImportRow, say: Say) {
  const pipeline = row.pipeline_id ? await scope.deps.pipelines.stored(row.pipeline_id) : undefined;
  if (!pipeline) throw new RunStepError('The pipeline of this import no longer exists.');
  const attempt = row.attempts > 1 ? ` (attempt ${row.attempts} of ${MAX_ATTEMPTS})` : '';
  await say('info', `Import of pipeline ${pipeline.name} (v${pipeline.version}) started${attempt}.`);
  componentToRun(pipeline);
  return pipeline;
}

/**
 * The steps of a claimed import, each said in its logs: its pipeline, then gather the inputs, run
 * the component, write the sinks; answers how it ends (done, with the data-store targets that
 * the final transaction writes). A step that fails throws; `csv` holds the CSV files being written.
 */
export async function runSteps(scope: RunScope, row: ImportRow, signal: AbortSignal, csv: CsvUploads): Promise<RunEnd> {
  const { deps } = scope;
  const config = deps.ctx.config;
  const say = sayTo(deps.logs, row.id);
  const progress = (values: { state?: 'progress'; progress: number }) =>
    importsRepo(scope.db).updateHeld(row.id, scope.workerId, values);
  const pipeline = await startRun(scope, row, say);
  const runtime = deps.components();
  if (!runtime) throw new RunStepError('The component runtime is not available.');

  const inputDeps = { ...deps, waitForChecksMs: config.importWaitForChecksMs };
  const inputs = await gatherInputs(inputDeps, pipeline, runAuth(row), say, signal);
  await progress({ state: 'progress', progress: 20 });

  await say('info', `Running the component on ${inputs.rowCount} input rows.`);
  const ran = await runComponent(runtime, { row, pipeline, inputJson: inputs.inputJson, limits: config.importRun, csv, signal });
  await deps.logs.append(ran.logs.map((l) => logLine(row.id, l.level, l.message)));
  signal.throwIfAborted();
  await progress({ progress: 60 });

  const lines: LogLine[] = [];
  const targets = await writeSinks(deps, { importId: row.id, userId: row.user_id, say, lines }, pipeline, ran.read());
  signal.throwIfAborted();
  await progress({ progress: 90 });
  lines.push(logLine(row.id, 'success', 'Import done.'));
  return { state: 'done', lines, targets, taken: inputs.taken };
}
