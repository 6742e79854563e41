import { downloadReference } from '@gdb/shared/imports/import-rules';
import type { DataSink, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { FileStore } from '../../platform/files/file-store.ts';
import { type ColumnTable, rowsOfTable, tableLength } from '../../platform/files/row-tables.ts';
import type { LogLine } from '../logs/logs.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import type { CsvUpload } from './csv-upload.ts';
import { logLine, type Say } from './run-context.ts';
import { RunStepError } from './run-errors.ts';
import { CSV_FILE_TYPE, type SinkFile, sinkFileName, tableRows, writeSinkFile, writeSinkTable } from './sink-files.ts';

/** What a run's sandbox answered: its output's ports, those of them in column tables, and CSV files by port. */
export interface SandboxOutput {
  ports: Record<string, unknown>;
  tables: ReadonlyMap<string, ColumnTable>;
  /** Each CSV file's upload, holding the pieces sent while the file was written, and its last piece. */
  csv: ReadonlyMap<string, { upload: CsvUpload; last: Uint8Array }>;
}

/** A data sink and the rows its data-store target takes (written when the import ends). */
export interface Output {
  sink: DataSink;
  rows: Record<string, unknown>[];
}

interface SinkDeps {
  files: Pick<FileStore, 'put'>;
  uploads: Pick<UploadsService, 'storeOutput'>;
}

/** The run whose sinks are written: its import, user, logs now, and lines kept for its end. */
interface SinkRun {
  importId: string;
  userId: string | null;
  say: Say;
  /** Lines written with the import's final state (the download references). */
  lines: LogLine[];
}

/** One sink's file, stored: its type, key, records and size, and the rows its data-store target takes. */
interface StoredSinkFile {
  type: Pick<SinkFile, 'contentType' | 'extension'>;
  key: string;
  rowCount: number;
  size: number;
  rows: Record<string, unknown>[];
}

/**
 * Stores one sink's output: a CSV file the sandbox wrote is kept once checked (its pieces were
 * checked and stored as they came); an answer in column tables is written as CSV without building
 * its rows, which are built for the other formats and for a data-store target.
 */
async function storeSinkFile(files: SinkDeps['files'], sink: DataSink, output: SandboxOutput): Promise<StoredSinkFile> {
  const csv = output.csv.get(sink.name);
  if (csv !== undefined) {
    const stored = await csv.upload.finish(csv.last);
    if (!stored) throw new RunStepError(`Data sink ${sink.name}: the CSV the component wrote cannot be stored.`);
    return { type: CSV_FILE_TYPE, ...stored, rows: [] };
  }
  const table = output.tables.get(sink.name);
  let rows: Record<string, unknown>[] = [];
  let file: SinkFile;
  let rowCount: number;
  if (table) {
    rows = sink.target ? rowsOfTable(table) : [];
    file = writeSinkTable(table, sink);
    rowCount = tableLength(table);
  } else {
    rows = tableRows(output.ports[sink.name], sink.name);
    file = writeSinkFile(rows, sink);
    rowCount = rows.length;
  }
  return { type: file, key: await files.put(file.bytes), rowCount, size: file.bytes.length, rows };
}

/**
 * Writes the sinks: one file per data sink that got an output, recorded as a destination upload
 * of the import (offered once it ends done); a sink without a data-store target is a download,
 * whose reference the import's last lines give. Answers the outputs for the data-store targets.
 */
export async function writeSinks(deps: SinkDeps, run: SinkRun, pipeline: PipelineView, output: SandboxOutput): Promise<Output[]> {
  const outputs: Output[] = [];
  for (const sink of pipeline.dataSinks) {
    if (output.ports[sink.name] === undefined && !output.csv.has(sink.name)) {
      await run.say('warn', `Data sink ${sink.name}: the component gave no output ${sink.name}.`, sink.name);
      continue;
    }
    const stored = await storeSinkFile(deps.files, sink, output);
    const fileName = sinkFileName(pipeline.name, sink.name, new Date(), stored.type.extension);
    const uploadId = await deps.uploads.storeOutput({
      pipelineId: pipeline._id,
      dataSinkName: sink.name,
      fileName,
      contentType: stored.type.contentType,
      size: stored.size,
      fileKey: stored.key,
      rowCount: stored.rowCount,
      importId: run.importId,
      createdBy: run.userId,
    });
    await run.say('success', `Data sink ${sink.name}: ${stored.rowCount} rows written to ${fileName}.`, sink.name);
    if (!sink.target) run.lines.push(logLine(run.importId, 'info', downloadReference(uploadId, fileName), sink.name));
    outputs.push({ sink, rows: stored.rows });
  }
  return outputs;
}
