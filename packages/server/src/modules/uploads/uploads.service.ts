import path from 'node:path';
import { CODES } from '@gdb/shared/api/envelope';
import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { MIME_GROUPS } from '@gdb/shared/reference/mimetypes';
import { LAST_LIST_SIZE, type LastList, MAX_FILE_BYTES, type UploadView } from '@gdb/shared/uploads/upload.schemas';
import { zipSync } from 'fflate';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/tables.ts';
import { errorMessage } from '../../platform/error-message.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';

import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import { sweepFiles } from './file-sweep.ts';
import type { PooledOutcome } from './parsing/parse-file.ts';
import type { ParsePool } from './parsing/parse-pool.ts';
import { type UploadRow, uploadsRepo } from './uploads.repo.ts';

/** A log line as the uploads module writes it. */
export interface UploadLogLine {
  level: 'error' | 'warn' | 'info' | 'success';
  message: string;
  dataSubKind: string;
  uploadId: string;
}

/** How often a check renews its claim on its upload. */
const CLAIM_RENEW_MS = 10_000;
/** A claim not renewed for this long, or an upload never claimed for this long, belongs to an instance gone. */
const CLAIM_STALE_MS = 30_000;

export interface UploadsDeps {
  pipelines: PipelinesService;
  files: FileStore;
  parser: ParsePool;
  log: (lines: UploadLogLine[]) => Promise<void>;
  /** The JSON schema of a data model (schema version id), or null when there is none with that id. */
  loadDataModel: (id: string) => Promise<Record<string, unknown> | null>;
  /** Hosts real-time sources may be fetched from (empty: any). */
  realtimeHosts?: readonly string[];
}

/** A log line of a file's check: its level and message. */
type CheckLine = [level: UploadLogLine['level'], message: string];

/** A file's check: its log lines, and the parse's outcome (null when the data source cannot check it). */
interface CheckOutcome {
  lines: CheckLine[];
  outcome: PooledOutcome | null;
}

export interface IncomingFile {
  dataSubKind: string;
  filename: string;
  mimetype: string;
  bytes: Uint8Array;
}

/** A file stored as it arrived (its key in the file store and its size): its check reads it back from the store. */
export interface StoredFile {
  dataSubKind: string;
  filename: string;
  mimetype: string;
  key: string;
  size: number;
}

const sizeOf = (f: IncomingFile | StoredFile) => ('key' in f ? f.size : f.bytes.length);

function toUploadView(r: UploadRow): UploadView {
  return {
    _id: r.id,
    pipelineId: r.pipeline_id,
    from: r.from,
    dataSubKind: r.data_sub_kind,
    status: r.status,
    createdAt: r.created_at.toISOString(),
    originalFilename: r.original_filename,
    contentType: r.content_type,
    size: r.size,
    rowCount: r.row_count,
    importId: r.import_id,
    enabled: r.enabled,
  };
}

/** An upload as a run reads it: what the screens see of it, and where its checked rows are stored. */
export interface RunUpload extends UploadView {
  rowsKey: string | null;
}

function toRunUpload(r: UploadRow): RunUpload {
  return { ...toUploadView(r), rowsKey: r.rows_key };
}

/** A file an import wrote for one of its data sinks, stored in the file store. */
export interface OutputFile {
  pipelineId: string;
  dataSinkName: string;
  fileName: string;
  contentType: string;
  size: number;
  fileKey: string;
  rowCount: number;
  importId: string;
  createdBy: string | null;
}

/** Uploads of both lists, once each, newest first. */
function newestFirst(a: readonly UploadRow[], b: readonly UploadRow[]): UploadRow[] {
  const byId = new Map([...a, ...b].map((r) => [r.id, r]));
  return [...byId.values()].sort((x, y) => y.created_at.getTime() - x.created_at.getTime() || (x.id < y.id ? 1 : -1));
}

/** A safe download name: the base name, without control or quote characters. */
function downloadName(name: string | null, fallback: string): string {
  const base = [...path.basename(name ?? '')]
    .map((c) => (c.charCodeAt(0) < 0x20 || c === '"' || c === '\\' || c === '/' ? '_' : c))
    .join('')
    .slice(0, 200);
  return base || fallback;
}

export function uploadsService(ctx: AppContext, deps: UploadsDeps) {
  const repo = uploadsRepo(ctx.db.kysely);
  let watcher: NodeJS.Timeout | undefined;
  const running = new Set<Promise<void>>();

  /** The pipeline whose uploads a source reads: the master's for a dataFromMaster source. */
  async function sourcePipeline(pipeline: PipelineView, dataSubKind: string): Promise<PipelineView> {
    const source = pipeline.dataSources.find((s) => s.dataSubKind === dataSubKind);
    if (!source?.dataFromMaster || !pipeline.masterPipeline) return pipeline;
    return (await deps.pipelines.stored(pipeline.masterPipeline)) ?? pipeline;
  }

  /**
   * What a run of the pipeline takes from one manual data source, and what the wizard shows it
   * takes: every enabled upload that is valid or still being checked, oldest first (the master's
   * for a dataFromMaster source).
   */
  async function runRows(pipeline: PipelineView, dataSubKind: string): Promise<UploadRow[]> {
    const owner = await sourcePipeline(pipeline, dataSubKind);
    return repo.runnableOf(owner._id, dataSubKind);
  }

  /** Loads uploads by id, refusing any whose pipeline the caller may not read. */
  async function readable(auth: AuthContext, ids: readonly string[]): Promise<UploadRow[]> {
    const rows = await repo.byIds(ids);
    const pipelines = new Set(rows.map((r) => r.pipeline_id));
    for (const id of pipelines) await deps.pipelines.byId(auth, id);
    return rows;
  }

  /** A pipeline's data source as it is now, or undefined when the pipeline or the source is gone. */
  async function sourceOf(pipelineId: string, dataSubKind: string): Promise<DataSource | undefined> {
    return (await deps.pipelines.stored(pipelineId))?.dataSources.find((s) => s.dataSubKind === dataSubKind);
  }

  /**
   * Checks a file against its data source (its content type and data model): the log lines and
   * the parse's outcome, without touching the upload's row. `bytes` are the file's, or a way to
   * read them back from the store.
   */
  async function check(
    source: DataSource | undefined,
    dataSubKind: string,
    filename: string | null,
    bytes: Uint8Array | (() => Promise<Uint8Array>),
  ): Promise<CheckOutcome> {
    const lines: CheckLine[] = [];
    if (!source) return { lines: [['error', `No data source ${dataSubKind} in pipeline`]], outcome: null };
    let dataModel: Record<string, unknown> | null = null;
    if (source.dataModel) {
      dataModel = await deps.loadDataModel(source.dataModel);
      if (!dataModel) return { lines: [['error', `Cannot load schema ${source.dataModel} from server`]], outcome: null };
    }
    const extension = path.extname(filename ?? '').toLowerCase();
    const allowed: readonly string[] = MIME_GROUPS[source.contentType].extensions;
    if (extension && !allowed.includes(extension)) {
      lines.push(['warn', `The file name ends in ${extension}, not ${allowed.join(' or ')}; its content decides.`]);
    }
    // A file read back from the store is read once a parser is free for it (see PoolRequest).
    const request = { bytes, group: source.contentType, dataModel, limits: ctx.config.parseLimits };
    return { lines, outcome: await deps.parser.parse(request) };
  }

  /**
   * Checks one upload and records the result; `started` is its check when it began as the file
   * arrived (else the file is read back from the store and checked now).
   */
  async function parseOne(id: string, started?: Promise<CheckOutcome>): Promise<void> {
    if (!(await repo.claim(id))) return;
    const row = await repo.byId(id);
    if (!row?.file_key) return;
    const fileKey = row.file_key;
    const lines: UploadLogLine[] = [];
    const say = (level: UploadLogLine['level'], message: string) =>
      lines.push({ level, message, dataSubKind: row.data_sub_kind, uploadId: id });
    // The claim is renewed while the check runs: a claim nobody renews is an instance gone.
    const heartbeat = setInterval(() => void repo.renewClaim(id).catch(() => undefined), CLAIM_RENEW_MS);
    heartbeat.unref();
    try {
      const checked = await (started ??
        check(await sourceOf(row.pipeline_id, row.data_sub_kind), row.data_sub_kind, row.original_filename, () =>
          deps.files.get(fileKey),
        ));
      for (const [level, message] of checked.lines) say(level, message);
      const { outcome } = checked;
      if (outcome === null) {
        await repo.update(id, { status: 'invalid' });
        return;
      }
      for (const note of outcome.notes) say(note.level, note.message);
      for (const p of outcome.problems) say('error', p.message);
      if (outcome.status === 'valid' && outcome.rowsBytes !== null) {
        const rowsKey = await deps.files.put(outcome.rowsBytes);
        await repo.update(id, { status: 'valid', row_count: outcome.rowCount, rows_key: rowsKey });
        say('success', outcome.summary);
      } else {
        await repo.update(id, { status: 'invalid', row_count: outcome.rowCount });
        if (outcome.problems.length !== 1 || outcome.problems[0]?.message !== outcome.summary) say('error', outcome.summary);
      }
    } catch (error) {
      ctx.log.error({ err: error, uploadId: id }, 'upload processing failed');
      await repo.release(id);
      throw error;
    } finally {
      clearInterval(heartbeat);
      await deps.log(lines);
    }
  }

  /** Parses an upload in the background; failures are logged and the upload is left to resume. */
  function schedule(id: string, started?: Promise<CheckOutcome>): void {
    const task = parseOne(id, started).catch(() => undefined);
    running.add(task);
    void task.finally(() => running.delete(task));
  }

  /**
   * Takes over the checks left unfinished by a stop or a crash, on this instance or another: the
   * uploads stored but never claimed, and those whose claim nobody renews; answers how many.
   */
  async function resume(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - CLAIM_STALE_MS);
    const rows = await repo.unfinished(before, before);
    for (const r of rows) {
      if (r.status === 'processing') await repo.release(r.id);
      schedule(r.id);
    }
    return rows.length;
  }

  /** Deletes the files a failed request stored (no row will reference them), then fails with its error. */
  async function dropStored(keys: readonly string[], error: unknown): Promise<never> {
    await Promise.all(
      keys.map((key) => deps.files.delete(key).catch((err) => ctx.log.warn({ err, key }, 'stored file of a failed upload kept'))),
    );
    throw error;
  }

  async function store(pipeline: PipelineView, auth: AuthContext, files: Array<IncomingFile | StoredFile>): Promise<string[]> {
    const rows = [];
    // Each file's check starts now, against the pipeline in hand, while the files are being
    // stored: its outcome is recorded only once the upload is (see parseOne). A check left behind
    // by a failed store ends unread. A file stored as it arrived is read back once its upload is.
    const checks = files.map((f) => {
      if ('key' in f) return undefined;
      const source = pipeline.dataSources.find((s) => s.dataSubKind === f.dataSubKind);
      const started = check(source, f.dataSubKind, f.filename, f.bytes);
      started.catch(() => undefined);
      return started;
    });
    const keys: string[] = [];
    for (const f of files) {
      const key = 'key' in f ? f.key : await deps.files.put(f.bytes).catch((error) => dropStored(keys, error));
      if (!('key' in f)) keys.push(key);
      rows.push({
        id: newId(),
        pipeline_id: pipeline._id,
        data_sub_kind: f.dataSubKind,
        from: 'source' as const,
        status: 'pending' as const,
        original_filename: f.filename.slice(0, 255),
        content_type: f.mimetype.slice(0, 255),
        size: sizeOf(f),
        file_key: key,
        row_count: null,
        import_id: null,
        created_by: auth.userId,
        rows_key: null,
        claimed_at: null,
      });
    }
    const inserted = await repo.insert(rows).catch((error) => dropStored(keys, error));
    await deps.log(
      inserted.map((r) => ({
        level: 'info' as const,
        message: `File ${r.original_filename ?? ''} received (${r.size} bytes).`,
        dataSubKind: r.data_sub_kind,
        uploadId: r.id,
      })),
    );
    const checkOf = new Map(rows.map((r, i) => [r.id, checks[i]]));
    for (const r of inserted) schedule(r.id, checkOf.get(r.id));
    return inserted.map((r) => r.id);
  }

  return {
    /**
     * Offers an import's output files once it ended done (valid), or withdraws those of an import
     * that did not (invalid): until then they are being written, and no export offers them.
     */
    settleOutputs: (trx: Kysely<Database>, importId: string, done: boolean) =>
      uploadsRepo(trx).settleOutputs(importId, done ? 'valid' : 'invalid'),
    /** Deletes the stored files no upload references, stored longer ago than the sweep's grace; answers how many. */
    sweepFiles: (now = new Date()) =>
      sweepFiles(ctx.db.kysely, deps.files, new Date(now.getTime() - ctx.config.fileSweepGraceMs)),
    /**
     * Stores the files of a pipeline's manual data sources and queues their checks; answers the
     * upload ids. Files already stored stay the caller's to delete when this fails.
     */
    async receive(auth: AuthContext, pipelineId: string, files: Array<IncomingFile | StoredFile>): Promise<string[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      if (files.length === 0) throw invalid('No file was sent.');
      for (const f of files) {
        const source = pipeline.dataSources.find((s) => s.dataSubKind === f.dataSubKind);
        if (!source) throw invalid(`No data source ${f.dataSubKind} in pipeline`);
        if (source.connectorType !== 'manual') throw invalid(`Data source ${f.dataSubKind} does not take uploads.`);
        if (source.dataFromMaster && pipeline.masterPipeline) {
          throw invalid(`Data source ${f.dataSubKind} takes its data from the master pipeline.`);
        }
        if (sizeOf(f) > MAX_FILE_BYTES) throw new AppError(413, CODES.tooLarge, 'Files must be less than 20 MiB');
      }
      return store(pipeline, auth, files);
    },

    /** Fetches the pipeline's real-time sources now and stores what they answer as uploads. */
    async fetchRealtime(auth: AuthContext, pipelineId: string, dataSubKinds: readonly string[]): Promise<string[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      const files: IncomingFile[] = [];
      for (const kind of dataSubKinds) {
        const source = pipeline.dataSources.find((s) => s.dataSubKind === kind);
        if (source?.connectorType !== 'real-time' || !source.url) throw invalid(`No real-time data source ${kind} in pipeline`);
        files.push(await fetchSource(source.url, kind, deps.realtimeHosts ?? []));
      }
      return store(pipeline, auth, files);
    },

    async statuses(auth: AuthContext, ids: readonly string[]): Promise<UploadView[]> {
      return (await readable(auth, ids)).map(toUploadView);
    },

    /** The last uploads of one data source (the master's for a dataFromMaster source), newest first. */
    async last(auth: AuthContext, pipelineId: string, dataSubKind: string): Promise<UploadView[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      if (!pipeline.dataSources.some((s) => s.dataSubKind === dataSubKind))
        throw invalid(`No data source ${dataSubKind} in pipeline`);
      const owner = await sourcePipeline(pipeline, dataSubKind);
      return (await repo.lastOf(owner._id, [dataSubKind], LAST_LIST_SIZE)).map(toUploadView);
    },

    /** The uploads a run of the pipeline takes from one manual data source (see `runRows`), whoever asks. */
    runUploads: async (pipeline: PipelineView, dataSubKind: string): Promise<RunUpload[]> =>
      (await runRows(pipeline, dataSubKind)).map(toRunUpload),
    /** Uploads as they are now, whoever asks (a run following the checks of its inputs). */
    current: async (ids: readonly string[]): Promise<RunUpload[]> => (await repo.byIds(ids)).map(toRunUpload),
    /** Records a file an import wrote, offered once the import ends done (see `settleOutputs`); answers its id. */
    async storeOutput(file: OutputFile): Promise<string> {
      const [row] = await repo.insert([
        {
          id: newId(),
          pipeline_id: file.pipelineId,
          data_sub_kind: file.dataSinkName,
          from: 'destination',
          status: 'processing',
          original_filename: file.fileName,
          content_type: file.contentType,
          size: file.size,
          file_key: file.fileKey,
          row_count: file.rowCount,
          import_id: file.importId,
          created_by: file.createdBy,
          rows_key: null,
          claimed_at: null,
        },
      ]);
      if (!row) throw new Error('The output file was not recorded.');
      return row.id;
    },

    /** The last uploads of every manual and real-time data source of a pipeline, and every older one a run takes. */
    async lastAll(auth: AuthContext, pipelineId: string): Promise<LastList[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      const lists: LastList[] = [];
      for (const s of pipeline.dataSources.filter((d) => d.connectorType === 'manual' || d.connectorType === 'real-time')) {
        const owner = await sourcePipeline(pipeline, s.dataSubKind);
        const last = await repo.lastOf(owner._id, [s.dataSubKind], LAST_LIST_SIZE);
        // Every upload a run takes is listed, older ones too: none is merged unseen.
        const taken = s.connectorType === 'manual' ? await runRows(pipeline, s.dataSubKind) : [];
        lists.push({ dataSubKind: s.dataSubKind, data: newestFirst(last, taken).map(toUploadView) });
      }
      return lists;
    },

    /** The output files of the pipeline's newest import that produced any, newest first (the Export screen). */
    async outputs(auth: AuthContext, pipelineId: string): Promise<UploadView[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      return (await repo.latestOutputs(pipeline._id)).map(toUploadView);
    },

    /** Turns an upload on or off for the next runs. */
    async setEnabled(auth: AuthContext, id: string, enabled: boolean): Promise<UploadView> {
      const [row] = await readable(auth, [id]);
      if (!row) throw notFound('Upload not found.');
      await repo.update(id, { enabled });
      return toUploadView({ ...row, enabled });
    },

    /** One file as itself, several as export.zip. */
    async exportFiles(auth: AuthContext, ids: readonly string[]): Promise<{ filename: string; bytes: Uint8Array }> {
      const rows = await readable(auth, ids);
      const found = ids.map((id) => rows.find((r) => r.id === id)).filter((r): r is UploadRow => r?.file_key != null);
      if (found.length === 0) throw notFound('cannot export selected uploads');
      if (found.length === 1 && found[0]?.file_key) {
        const only = found[0];
        return {
          filename: downloadName(only.original_filename, `${only.id}.dat`),
          bytes: await deps.files.get(only.file_key ?? ''),
        };
      }
      const entries: Record<string, Uint8Array> = {};
      for (const r of found) {
        let name = downloadName(r.original_filename, `${r.id}.dat`);
        if (entries[name]) name = `${r.id}-${name}`;
        entries[name] = await deps.files.get(r.file_key ?? '');
      }
      return { filename: 'export.zip', bytes: zipSync(entries, { level: 6 }) };
    },

    resume,

    /** Looks for unfinished checks every `intervalMs` until the app closes, so a live instance takes over a dead one's. */
    watch(intervalMs = CLAIM_STALE_MS / 2): void {
      clearInterval(watcher);
      watcher = setInterval(() => {
        resume().then(
          (count) => count > 0 && ctx.log.info({ uploads: count }, 'took over unfinished upload checks'),
          (err: unknown) => ctx.log.warn({ err }, 'looking for unfinished upload checks failed'),
        );
      }, intervalMs);
      watcher.unref();
    },

    /** Stops looking for unfinished checks. */
    unwatch(): void {
      clearInterval(watcher);
    },

    /** Resolves once every background check started so far has finished. */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}

/** Fetches a real-time source with a time limit and the upload size limit. */
async function fetchSource(url: string, dataSubKind: string, hosts: readonly string[]): Promise<IncomingFile> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw invalid(`Real-time source ${dataSubKind}: only http and https are fetched.`);
  if (hosts.length > 0 && !hosts.includes(target.hostname))
    throw invalid(`Real-time source ${dataSubKind}: host ${target.hostname} is not allowed.`);
  let res: Response;
  try {
    res = await fetch(target, { signal: AbortSignal.timeout(30_000), redirect: 'error' });
  } catch (error) {
    throw new AppError(502, CODES.badRequest, `Real-time source ${dataSubKind} could not be fetched: ${errorMessage(error)}`);
  }
  if (!res.ok) throw new AppError(502, CODES.badRequest, `Real-time source ${dataSubKind} answered ${res.status}.`);
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_FILE_BYTES) throw new AppError(413, CODES.tooLarge, 'Files must be less than 20 MiB');
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      size += chunk.length;
      if (size > MAX_FILE_BYTES) throw new AppError(413, CODES.tooLarge, 'Files must be less than 20 MiB');
      chunks.push(chunk);
    }
  }
  const name = path.basename(target.pathname) || `${dataSubKind}.data`;
  return {
    dataSubKind,
    filename: name,
    mimetype: res.headers.get('content-type') ?? 'application/octet-stream',
    bytes: Buffer.concat(chunks),
  };
}

export type UploadsService = ReturnType<typeof uploadsService>;

/**
 * An example file read by the upload readers, for inferring a data model from it (docs/product.md
 * §18.2); throws an Error saying why a file cannot be read.
 */
export { readExample } from './parsing/read-example.ts';
