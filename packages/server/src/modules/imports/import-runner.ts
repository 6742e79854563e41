import crypto from 'node:crypto';
import os from 'node:os';
import { downloadReference, IMPORT_MESSAGES, missingFieldsMessage } from '@gdb/shared/imports/import-rules';
import { type DataSink, missingRunFields, type PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import { AppError } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { DataStoreError, type DataStoreTarget, type DatastoreService } from '../datastore/datastore.service.ts';
import type { LogLine, LogsService } from '../logs/logs.service.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import { asColumnTable, type ColumnTable, rowsOfTable, tableLength } from '../uploads/row-tables.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { type ComponentRunner, logsOfFailure } from './component-runner.ts';
import { type ImportRow, importsRepo, type JobRow, jobsRepo, leasesRepo } from './imports.repo.ts';
import type { JobQueue } from './job-queue.ts';
import { RunStepError } from './run-errors.ts';
import { gatherInputs } from './run-inputs.ts';
import { CSV_FILE_TYPE, csvLines, type SinkFile, sinkFileName, tableRows, writeSinkFile, writeSinkTable } from './sink-files.ts';

/** Runs of one import (the first and the restarts on error). */
export const MAX_ATTEMPTS = 3;
/** Seconds before a run waits again for a pipeline that is busy, and before a restart. */
const BUSY_RETRY_SECONDS = 15;
const RESTART_DELAY_SECONDS = 5;
const NIL_USER = '00000000-0000-0000-0000-000000000000';

/** Why a run was stopped from outside: a stop asked for, this process stopping, or its lease taken. */
export type StopReason = 'stop' | 'shutdown' | 'lost';

/** How one run ended. */
export type Outcome = 'done' | 'failed' | 'aborted' | 'restarted' | 'lost' | 'gone' | 'busy';

export interface RunnerDeps {
  ctx: AppContext;
  pipelines: PipelinesService;
  uploads: UploadsService;
  logs: LogsService;
  datastore: DatastoreService;
  files: FileStore;
  queue: JobQueue;
  /** The component runtime, once there is one. */
  components: () => ComponentRunner | undefined;
}

interface Output {
  sink: DataSink;
  rows: Record<string, unknown>[];
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}

function reasonOf(signal: AbortSignal): StopReason {
  const r: unknown = signal.reason;
  return r === 'shutdown' || r === 'lost' ? r : 'stop';
}

/** What a run's sandbox answered: its output's ports, those of them in column tables, and CSV files by port. */
interface SandboxOutput {
  ports: Record<string, unknown>;
  tables: ReadonlyMap<string, ColumnTable>;
  /** Each CSV file's upload, holding the pieces sent while the file was written, and its last piece. */
  csv: ReadonlyMap<string, { upload: CsvUpload; last: Uint8Array }>;
}

/** Bytes of a piece of CSV file the sandbox hands over while it writes the rest. */
const CSV_PIECE_BYTES = 2 * 1024 * 1024;

/**
 * A CSV file a sandbox writes, stored piece by piece as the pieces come, while the next ones are
 * being written: each is checked (`csvLines`, the first starting with the header line) before it
 * is written, and the file is kept only when every piece passed.
 */
function csvUpload(files: FileStore) {
  const writer = files.writer();
  let width: number | null = null;
  let records = 0;
  let size = 0;
  let passed = true;
  const add = (bytes: Uint8Array) => {
    if (!passed || bytes.length === 0) return;
    const lines = csvLines(bytes, width);
    if (lines === null) {
      passed = false;
      return;
    }
    records += width === null ? lines.count - 1 : lines.count;
    width = lines.width;
    size += bytes.length;
    writer.write(bytes);
  };
  return {
    add,
    /** Adds the last piece: the stored file's key, records and size, or null (nothing stored) when a piece did not pass. */
    async finish(last: Uint8Array): Promise<{ key: string; rowCount: number; size: number } | null> {
      add(last);
      if (!passed || width === null) {
        await writer.abort();
        return null;
      }
      return { key: await writer.done(), rowCount: records, size };
    },
    /** Leaves nothing stored of a file not finished (no effect on one that was). */
    abort: () => writer.abort(),
  };
}

type CsvUpload = ReturnType<typeof csvUpload>;

/** Output ports whose every data sink writes a CSV file and nothing else: the sandbox may write that file. */
function csvOnlyPorts(sinks: readonly DataSink[]): string[] {
  const ports = new Set(sinks.map((s) => s.name));
  for (const sink of sinks) if (sink.format !== 'CSV' || sink.target) ports.delete(sink.name);
  return [...ports];
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

/** The message a failure shows in the import's logs: its own when it is meant for people. */
function failureMessage(error: unknown): string {
  if (error instanceof RunStepError || error instanceof DataStoreError || error instanceof AppError) return error.message;
  return IMPORT_MESSAGES.unexpected;
}

/** Runs imports: claims them, gathers inputs, runs the component, writes the data sinks, logs every step. */
export function importRunner(deps: RunnerDeps) {
  const { ctx } = deps;
  const db = ctx.db.kysely;
  const workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  /** Runs in this process, by import id. */
  const local = new Map<string, AbortController>();
  /** Imports whose lease this process holds. */
  const leased = new Set<string>();
  const toldWaiting = new Set<string>();

  const line = (importId: string, level: LogLine['level'], message: string, dataSubKind?: string | null): LogLine => ({
    level,
    message,
    importId,
    dataSubKind: dataSubKind ?? null,
  });
  const say = (importId: string) => (level: LogLine['level'], message: string, dataSubKind?: string | null) =>
    deps.logs.append(line(importId, level, message, dataSubKind));

  async function requeue(importId: string, seconds: number): Promise<void> {
    await db.transaction().execute((trx) => deps.queue.sendRun(trx, importId, seconds));
  }

  /** Takes a pending import for this worker; 'busy' when its pipeline already runs an import. */
  async function claim(importId: string, state: 'busy' | 'sequential'): Promise<ImportRow | 'gone' | 'busy'> {
    try {
      return await db
        .transaction()
        .execute(async (trx) => {
          const row = await importsRepo(trx).claim(importId, state);
          if (!row) return 'gone' as const;
          await leasesRepo(trx).insert(importId, workerId);
          return row;
        })
        .then((claimed) => {
          if (claimed !== 'gone') leased.add(importId);
          return claimed;
        });
    } catch (error) {
      if (isUniqueViolation(error)) return 'busy';
      throw error;
    }
  }

  /** The user a run acts for, with the rights it had when the import was asked for. */
  function runAuth(row: ImportRow): AuthContext {
    return { userId: row.user_id ?? NIL_USER, sessionId: 'import-run', userName: 'import', roles: ['super-admin'] };
  }

  /**
   * Ends a run: gives up the lease and writes the final state, data-store rows and logs in one
   * transaction. False when the lease was lost (another instance declared this worker gone).
   */
  async function finish(
    row: ImportRow,
    job: JobRow | undefined,
    end: { state: 'done' | 'failed' | 'aborted' | 'pending'; lines: LogLine[]; targets?: Output[] },
  ): Promise<boolean> {
    const released = await db.transaction().execute(async (trx) => {
      if (!(await leasesRepo(trx).release(row.id, workerId))) return false;
      const lines = [...end.lines];
      for (const { sink, rows } of end.targets ?? []) {
        if (!sink.target) continue;
        const target: DataStoreTarget = sink.target;
        const count = await deps.datastore.upsert(trx, target, rows, row.id);
        lines.push(line(row.id, 'success', `Data store ${target.table}: ${count} rows upserted.`, sink.name));
      }
      const final = end.state !== 'pending';
      await importsRepo(trx).update(row.id, {
        state: end.state,
        success: end.state === 'done',
        progress: end.state === 'done' ? 100 : undefined,
        end_at: final ? new Date() : null,
      });
      await deps.uploads.settleOutputs(trx, row.id, end.state === 'done');
      // The pipeline is free: an import waiting for it starts at the next poll, not after its delay.
      if (row.pipeline_id) await deps.queue.wakeWaitingRuns(trx, row.pipeline_id);
      if (final && job && !row.parent_import_id && job.job_kind !== 'repeat') {
        await jobsRepo(trx).update(job.id, { state: 'done' });
      }
      if (end.state === 'pending') await deps.queue.sendRun(trx, row.id, RESTART_DELAY_SECONDS);
      await deps.logs.append(lines, trx);
      return true;
    });
    leased.delete(row.id);
    deps.queue.nudge();
    return released;
  }

  /**
   * Stores one file per data sink that got an output, as destination uploads of the import. An
   * output the sandbox wrote as CSV is stored once checked; one it answered as a column table is
   * written as CSV without building its rows; they are built for the other formats and for a
   * data-store target.
   */
  async function writeOutputs(row: ImportRow, pipeline: PipelineView, output: SandboxOutput, lines: LogLine[]) {
    const outputs: Output[] = [];
    const log = say(row.id);
    for (const sink of pipeline.dataSinks) {
      const csv = output.csv.get(sink.name);
      const value = output.ports[sink.name];
      if (value === undefined && csv === undefined) {
        await log('warn', `Data sink ${sink.name}: the component gave no output ${sink.name}.`, sink.name);
        continue;
      }
      const table = output.tables.get(sink.name);
      let rows: Record<string, unknown>[] = [];
      let type: Pick<SinkFile, 'contentType' | 'extension'>;
      let rowCount: number;
      let key: string;
      let size: number;
      if (csv !== undefined) {
        // Only asked for sinks that write nothing but this CSV file. Its pieces were checked and
        // stored as they came; nothing of it is kept when one of them did not pass.
        type = CSV_FILE_TYPE;
        const stored = await csv.upload.finish(csv.last);
        if (!stored) throw new RunStepError(`Data sink ${sink.name}: the CSV the component wrote cannot be stored.`);
        ({ key, rowCount, size } = stored);
      } else {
        let file: SinkFile;
        if (table) {
          rows = sink.target ? rowsOfTable(table) : [];
          file = writeSinkTable(table, sink);
          rowCount = tableLength(table);
        } else {
          rows = tableRows(value, sink.name);
          file = writeSinkFile(rows, sink);
          rowCount = rows.length;
        }
        type = file;
        key = await deps.files.put(file.bytes);
        size = file.bytes.length;
      }
      const fileName = sinkFileName(pipeline.name, sink.name, new Date(), type.extension);
      const uploadId = newId();
      await deps.uploads.repo.insert([
        {
          id: uploadId,
          pipeline_id: pipeline._id,
          data_sub_kind: sink.name,
          from: 'destination',
          // Offered once the import ends done (finish settles them).
          status: 'processing',
          original_filename: fileName,
          content_type: type.contentType,
          size,
          file_key: key,
          row_count: rowCount,
          import_id: row.id,
          created_by: row.user_id,
          rows_key: null,
          claimed_at: null,
        },
      ]);
      await log('success', `Data sink ${sink.name}: ${rowCount} rows written to ${fileName}.`, sink.name);
      if (!sink.target) lines.push(line(row.id, 'info', downloadReference(uploadId, fileName), sink.name));
      outputs.push({ sink, rows });
    }
    return outputs;
  }

  /** The steps of a claimed import, up to its final state. */
  async function execute(row: ImportRow, job: JobRow | undefined, signal: AbortSignal): Promise<Outcome> {
    const log = say(row.id);
    let targets: Output[] = [];
    const lines: LogLine[] = [];
    const csvUploads = new Map<string, CsvUpload>();
    const csvUploadOf = (port: string) => {
      const upload = csvUploads.get(port) ?? csvUpload(deps.files);
      csvUploads.set(port, upload);
      return upload;
    };
    try {
      const pipelineRow = row.pipeline_id ? await deps.pipelines.repo.byId(row.pipeline_id) : undefined;
      if (!pipelineRow) throw new RunStepError('The pipeline of this import no longer exists.');
      const pipeline = deps.pipelines.toView(pipelineRow);
      const attempt = row.attempts > 1 ? ` (attempt ${row.attempts} of ${MAX_ATTEMPTS})` : '';
      await log('info', `Import of pipeline ${pipeline.name} (v${pipeline.version}) started${attempt}.`);
      const missing = missingRunFields(pipeline);
      if (missing.length > 0) throw new RunStepError(missingFieldsMessage(missing));
      if (pipeline.dataSources.length === 0) throw new RunStepError(IMPORT_MESSAGES.noDataSource);
      if (!pipeline.component) throw new RunStepError('The pipeline has no component to run.');
      const runtime = deps.components();
      if (!runtime) throw new RunStepError('The component runtime is not available.');

      const inputs = await gatherInputs(deps, pipeline, runAuth(row), log, signal);
      await importsRepo(db).updateHeld(row.id, workerId, { state: 'progress', progress: 20 });
      await log('info', `Running the component on ${inputs.rowCount} input rows.`);
      const rtContext = {
        pipeline: { _id: pipeline._id, name: pipeline.name, version: pipeline.version, isMaster: pipeline.isMaster },
        brand: pipeline.brand,
        locale: pipeline.locale,
        productLine: pipeline.productLine,
        datakind: pipeline.datakind,
        user: row.user_id,
        importId: row.id,
        jobId: row.job_id,
      };
      const csvPorts = csvOnlyPorts(pipeline.dataSinks);
      const answer = await runtime.runComponent({
        componentId: pipeline.component,
        inputJson: inputs.inputJson,
        rtContextJson: JSON.stringify(rtContext),
        tables: true,
        csvPorts,
        csvPieces: { bytes: CSV_PIECE_BYTES, onPiece: (port, bytes) => csvUploadOf(port).add(bytes) },
        limits: ctx.config.importRun,
        signal,
      });
      await deps.logs.append(answer.logs.map((l) => line(row.id, l.level, l.message)));
      signal.throwIfAborted();
      await importsRepo(db).updateHeld(row.id, workerId, { progress: 60 });
      const output: unknown = JSON.parse(answer.outputJson);
      if (typeof output !== 'object' || output === null || Array.isArray(output)) {
        throw new RunStepError('The component answered no output object.');
      }
      const ports = Object.fromEntries(Object.entries(output));
      const sandboxOutput: SandboxOutput = {
        ports,
        tables: columnTablesOf(ports, answer.outputTables ?? []),
        // Only the ports asked for: the sandbox's answer is not trusted to keep to them.
        csv: new Map(
          Object.entries(answer.outputCsv ?? {})
            .filter(([port]) => csvPorts.includes(port))
            .map(([port, last]) => [port, { upload: csvUploadOf(port), last }]),
        ),
      };
      targets = await writeOutputs(row, pipeline, sandboxOutput, lines);
      signal.throwIfAborted();
      await importsRepo(db).updateHeld(row.id, workerId, { progress: 90 });
    } catch (error) {
      return ended(row, job, signal, error);
    } finally {
      // The CSV files not stored whole (a failed run, a port the answer did not name a file) leave nothing.
      await Promise.all([...csvUploads.values()].map((upload) => upload.abort()));
    }
    lines.push(line(row.id, 'success', 'Import done.'));
    try {
      return (await finish(row, job, { state: 'done', lines, targets })) ? 'done' : 'lost';
    } catch (error) {
      return ended(row, job, signal, error);
    }
  }

  /** Ends a run that did not succeed: aborted, restarted (restartOnError) or failed. */
  async function ended(row: ImportRow, job: JobRow | undefined, signal: AbortSignal, error: unknown): Promise<Outcome> {
    const reason = signal.aborted ? reasonOf(signal) : null;
    if (reason === 'lost') return 'lost';
    if (reason === 'stop') {
      const lines = [line(row.id, 'warn', IMPORT_MESSAGES.aborted)];
      return (await finish(row, job, { state: 'aborted', lines })) ? 'aborted' : 'lost';
    }
    const lines = logsOfFailure(error).map((l) => line(row.id, l.level, l.message));
    if (reason === 'shutdown') lines.push(line(row.id, 'error', 'The server stopped during the import.'));
    else {
      if (failureMessage(error) === IMPORT_MESSAGES.unexpected)
        ctx.log.error({ err: error, importId: row.id }, 'import run failed');
      lines.push(line(row.id, 'error', failureMessage(error)));
    }
    const restart = !row.parent_import_id && job?.restart_on_error === true && row.attempts < MAX_ATTEMPTS;
    if (restart) {
      lines.push(line(row.id, 'warn', `The import starts again (attempt ${row.attempts + 1} of ${MAX_ATTEMPTS}).`));
      return (await finish(row, job, { state: 'pending', lines })) ? 'restarted' : 'lost';
    }
    lines.push(line(row.id, 'error', 'Import failed.'));
    return (await finish(row, job, { state: 'failed', lines })) ? 'failed' : 'lost';
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
      leased.delete(row.id);
      outer?.removeEventListener('abort', onOuter);
    }
  }

  /** Runs a master's chosen country pipelines one after the other (job kind sequential). */
  async function runSequence(row: ImportRow, job: JobRow): Promise<Outcome> {
    const controller = new AbortController();
    local.set(row.id, controller);
    const signal = controller.signal;
    const log = say(row.id);
    try {
      const claimed = await claim(row.id, 'sequential');
      if (claimed === 'gone' || claimed === 'busy') return claimed;
      const countries = job.list_pipelines;
      const earlier = await importsRepo(db).children(row.id);
      await log('info', `Sequential import of ${countries.length} country pipelines started.`);
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
      if (signal.aborted) return ended(claimed, job, signal, new Error('stopped'));
      const state = succeeded === countries.length ? 'done' : 'failed';
      const summary = `Sequential import ended: ${succeeded} of ${countries.length} country pipelines succeeded.`;
      const lines = [line(row.id, state === 'done' ? 'success' : 'error', summary)];
      return (await finish(claimed, job, { state, lines })) ? state : 'lost';
    } finally {
      local.delete(row.id);
      leased.delete(row.id);
    }
  }

  /** One country pipeline of a sequence, restarted on error when the job says so. */
  async function runCountry(parent: ImportRow, job: JobRow, countryId: string, position: string, signal: AbortSignal) {
    const country = await deps.pipelines.repo.byId(countryId);
    const child = await importsRepo(db).insert({
      id: newId(),
      pipeline_id: country ? countryId : null,
      job_id: job.id,
      parent_import_id: parent.id,
      user_id: parent.user_id,
      destinations: country ? deps.pipelines.toView(country).dataSinks.map((s) => s.name) : [],
    });
    await say(parent.id)('info', `Country pipeline ${country?.name ?? countryId} (${position}): import ${child.id}.`);
    if (!country) {
      await importsRepo(db).update(child.id, { state: 'failed', end_at: new Date() });
      await say(child.id)('error', 'The pipeline of this import no longer exists.');
      return 'failed';
    }
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

  return {
    workerId,

    /** Runs a queued import (the run queue's handler). */
    async run(importId: string): Promise<Outcome> {
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
        await requeue(importId, BUSY_RETRY_SECONDS);
      } else toldWaiting.delete(importId);
      return outcome;
    },

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
      return [...leased];
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
