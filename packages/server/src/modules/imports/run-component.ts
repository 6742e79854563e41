import { IMPORT_MESSAGES, missingFieldsMessage } from '@gdb/shared/imports/import-rules';
import { missingRunFields, type PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { JsonParts } from '../../platform/files/json-parts.ts';
import { asColumnTable, type ColumnTable } from '../../platform/files/row-tables.ts';
import type { ComponentRunAnswer, ComponentRunner } from './component-runner.ts';
import { CSV_PIECE_BYTES, type CsvUploads, csvOnlyPorts } from './csv-upload.ts';
import type { ImportRow } from './imports.repo.ts';
import { RunStepError } from './run-errors.ts';
import type { SandboxOutput } from './run-sinks.ts';

/** The pipeline's component, once the pipeline is found able to run; else the reason, thrown. */
export function componentToRun(pipeline: PipelineView): string {
  const missing = missingRunFields(pipeline);
  if (missing.length > 0) throw new RunStepError(missingFieldsMessage(missing));
  if (pipeline.dataSources.length === 0) throw new RunStepError(IMPORT_MESSAGES.noDataSource);
  if (!pipeline.component) throw new RunStepError('The pipeline has no component to run.');
  return pipeline.component;
}

/** ctx.rt_context of a run: the pipeline, its reference data, the user, the import and its job. */
export function runContextOf(pipeline: PipelineView, row: Pick<ImportRow, 'id' | 'user_id' | 'job_id'>) {
  return {
    pipeline: { _id: pipeline._id, name: pipeline.name, version: pipeline.version, isMaster: pipeline.isMaster },
    brand: pipeline.brand,
    locale: pipeline.locale,
    productLine: pipeline.productLine,
    datakind: pipeline.datakind,
    user: row.user_id,
    importId: row.id,
    jobId: row.job_id,
  };
}

/** The output ports the sandbox answered as column tables, each checked: its answer is not trusted. */
function columnTablesOf(output: Record<string, unknown>, names: readonly string[]): Map<string, ColumnTable> {
  const tables = new Map<string, ColumnTable>();
  for (const name of names) {
    const table = Object.hasOwn(output, name) ? asColumnTable(output[name]) : null;
    if (!table) throw new RunStepError(`The component's output ${name} cannot be read.`);
    tables.set(name, table);
  }
  return tables;
}

/** What the sandbox answered, read: an output object, its column tables and the CSV files of the ports asked for. */
export function sandboxOutputOf(answer: ComponentRunAnswer, csvPorts: readonly string[], csv: CsvUploads): SandboxOutput {
  const output: unknown = JSON.parse(answer.outputJson);
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    throw new RunStepError('The component answered no output object.');
  }
  const ports = Object.fromEntries(Object.entries(output));
  return {
    ports,
    tables: columnTablesOf(ports, answer.outputTables ?? []),
    // Only the ports asked for: the sandbox's answer is not trusted to keep to them.
    csv: new Map(
      Object.entries(answer.outputCsv ?? {})
        .filter(([port]) => csvPorts.includes(port))
        .map(([port, last]) => [port, { upload: csv.of(port), last }]),
    ),
  };
}

interface ComponentRun {
  row: Pick<ImportRow, 'id' | 'user_id' | 'job_id'>;
  pipeline: PipelineView;
  inputJson: JsonParts;
  limits: { memoryMiB: number; timeoutMs: number };
  /** The run's CSV files, stored as the sandbox writes them. */
  csv: CsvUploads;
  signal: AbortSignal;
}

/**
 * Runs the component in the sandbox on the gathered inputs, rows travelling as tables both ways;
 * the output ports whose sinks are CSV files only come back as those files, in pieces stored as
 * they are written. Answers the output read and the component's log lines.
 */
export async function runComponent(runtime: ComponentRunner, run: ComponentRun) {
  const csvPorts = csvOnlyPorts(run.pipeline.dataSinks);
  const answer = await runtime.runComponent({
    componentId: componentToRun(run.pipeline),
    inputJson: run.inputJson,
    rtContextJson: JSON.stringify(runContextOf(run.pipeline, run.row)),
    tables: true,
    csvPorts,
    csvPieces: { bytes: CSV_PIECE_BYTES, onPiece: (port, bytes) => run.csv.of(port).add(bytes) },
    limits: run.limits,
    signal: run.signal,
  });
  return { logs: answer.logs, read: () => sandboxOutputOf(answer, csvPorts, run.csv) };
}
