import path from 'node:path';
import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { MAX_FILE_BYTES, type SentFrom } from '@gdb/shared/uploads/upload.schemas';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { groupedWrites } from '../../platform/db/grouped-writes.ts';
import type { Database } from '../../platform/db/index.ts';
import { invalid } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { tooLarge } from './multipart-parts.ts';
import { fetchRealtimeSource, type RealtimeSourcePolicy } from './realtime-fetch.ts';
import { type CheckOutcome, checkFile, recordOf, rowsToStore, type UploadChecks } from './upload-checks.ts';
import type { UploadsDeps } from './upload-deps.ts';
import { uploadsRepo } from './uploads.repo.ts';

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

/** What storing received files takes: the app, the uploads' dependencies and the background checks. */
interface Receiver {
  ctx: AppContext;
  deps: UploadsDeps;
  checks: UploadChecks;
}

/** Deletes the files a failed request stored (no row will reference them), then fails with its error. */
async function dropStored(r: Receiver, keys: readonly string[], error: unknown): Promise<never> {
  await Promise.all(
    keys.map((key) =>
      r.deps.files.delete(key).catch((err) => r.ctx.log.warn({ err, key }, 'stored file of a failed upload kept')),
    ),
  );
  throw error;
}

/** The pipeline's data source of that name when people may upload files to it (400 otherwise, saying why). */
export function uploadSource(pipeline: PipelineView, dataSubKind: string): DataSource {
  const source = pipeline.dataSources.find((s) => s.dataSubKind === dataSubKind);
  if (!source) throw invalid(`No data source ${dataSubKind} in pipeline`);
  if (source.connectorType !== 'manual') throw invalid(`Data source ${dataSubKind} does not take uploads.`);
  if (source.dataFromMaster && pipeline.masterPipeline) {
    throw invalid(`Data source ${dataSubKind} takes its data from the master pipeline.`);
  }
  return source;
}

/** An upload's row as its file is stored, its check to come. */
function uploadRow(pipeline: PipelineView, auth: AuthContext, f: IncomingFile | StoredFile, key: string, sentFrom: SentFrom) {
  return {
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
    sent_from: sentFrom,
  };
}

/** The first line of an upload's log. */
function receivedLine(row: { id: string; original_filename: string | null; size: number; data_sub_kind: string }) {
  return {
    level: 'info' as const,
    message: `File ${row.original_filename ?? ''} received (${row.size} bytes).`,
    dataSubKind: row.data_sub_kind,
    uploadId: row.id,
  };
}

/** A file whose check has ended (an endpoint's call, a listener's batch), to store as an upload in its final state. */
interface CheckedUpload {
  pipeline: PipelineView;
  auth: AuthContext;
  file: IncomingFile;
  checked: CheckOutcome;
}

/** The most checked uploads one transaction writes, and the most bytes of theirs (a heavier one goes alone). */
const GROUP_LIMITS = { maxItems: 64, maxWeight: 8 * 1024 * 1024, weigh: (u: CheckedUpload) => u.file.bytes.byteLength };

/** The row and log lines of a checked upload whose file (and rows) are stored under these keys. */
function checkedRecord(u: CheckedUpload, fileKey: string, rowsKey: string | undefined) {
  const recorded = recordOf(u.checked, rowsKey);
  const row = { ...uploadRow(u.pipeline, u.auth, u.file, fileKey, 'wizard'), ...recorded.fields };
  const lines = recorded.lines.map(([level, message]) => ({ level, message, dataSubKind: row.data_sub_kind, uploadId: row.id }));
  return { row, lines: [receivedLine(row), ...lines] };
}

/**
 * Stores checked files as uploads in their final state, in one transaction: each file and its
 * checked rows (in the database's file store, in one statement), the rows written once with their
 * outcomes, their log lines. One commit for all of them; nothing is left to check in the background.
 */
async function storeChecked(r: Receiver, uploads: readonly CheckedUpload[]): Promise<string[]> {
  const keys: string[] = [];
  const write = async (trx: Kysely<Database>) => {
    const rows = uploads.map((u) => rowsToStore(u.checked));
    const files = [...uploads.map((u) => u.file.bytes), ...rows.filter((bytes) => bytes !== null)];
    keys.push(...(await r.deps.files.putAll(files, trx)));
    let nextRows = uploads.length;
    const records = uploads.map((u, i) => checkedRecord(u, keys[i] as string, rows[i] ? keys[nextRows++] : undefined));
    await uploadsRepo(trx).insert(records.map((c) => c.row));
    await r.deps.log(
      records.flatMap((c) => c.lines),
      trx,
    );
    return records.map((c) => c.row.id);
  };
  // The files a local store wrote are deleted when the transaction fails (the database's go with it).
  return r.ctx.db.kysely
    .transaction()
    .execute(write)
    .catch((error) => dropStored(r, keys, error));
}

async function store(
  r: Receiver,
  pipeline: PipelineView,
  auth: AuthContext,
  files: Array<IncomingFile | StoredFile>,
  sentFrom: SentFrom,
): Promise<string[]> {
  const rows = [];
  // Each file's check starts now, against the pipeline in hand, while the files are being
  // stored: its outcome is recorded only once the upload is (see parseOne). A check left behind
  // by a failed store ends unread. A file stored as it arrived is read back once its upload is.
  const checks = files.map((f) => {
    if ('key' in f) return undefined;
    const source = pipeline.dataSources.find((s) => s.dataSubKind === f.dataSubKind);
    const file = { pipelineId: pipeline._id, source, dataSubKind: f.dataSubKind, filename: f.filename };
    const started = checkFile(r.ctx, r.deps, file, f.bytes);
    started.catch(() => undefined);
    return started;
  });
  const keys: string[] = [];
  for (const f of files) {
    const key = 'key' in f ? f.key : await r.deps.files.put(f.bytes).catch((error) => dropStored(r, keys, error));
    if (!('key' in f)) keys.push(key);
    rows.push(uploadRow(pipeline, auth, f, key, sentFrom));
  }
  const inserted = await uploadsRepo(r.ctx.db.kysely)
    .insert(rows)
    .catch((error) => dropStored(r, keys, error));
  await r.deps.log(inserted.map(receivedLine));
  const checkOf = new Map(rows.map((row, i) => [row.id, checks[i]]));
  for (const row of inserted) r.checks.schedule(row.id, checkOf.get(row.id));
  return inserted.map((row) => row.id);
}

/**
 * Checks what an endpoint call or a listener batch brings against the pipeline's data source of
 * that connector (a listener's messages are JSON whatever the source's content type), storing nothing.
 */
async function checkCall(
  r: Receiver,
  pipeline: PipelineView,
  connector: 'endpoint' | 'listener',
  call: { filename: string; mimetype: string; bytes: Uint8Array },
) {
  const found = pipeline.dataSources.find((s) => s.connectorType === connector);
  if (!found) throw invalid(`This pipeline has no ${connector} data source.`);
  if (call.bytes.length > MAX_FILE_BYTES) throw tooLarge();
  const source = connector === 'listener' ? { ...found, contentType: 'json' as const } : found;
  const checked = await checkFile(
    r.ctx,
    r.deps,
    { pipelineId: pipeline._id, source, dataSubKind: source.dataSubKind, filename: call.filename },
    call.bytes,
  );
  return { source, checked };
}

/** Taking in the files of a pipeline's sources: uploaded ones, and what real-time sources answer. */
export function uploadReceiving(ctx: AppContext, deps: UploadsDeps, checks: UploadChecks) {
  const receiver: Receiver = { ctx, deps, checks };
  // Calls and batches checked while others are being stored share the next transaction.
  const storeCheckedUpload = groupedWrites((uploads: readonly CheckedUpload[]) => storeChecked(receiver, uploads), GROUP_LIMITS);
  return {
    /**
     * Stores the files of a pipeline's manual data sources and queues their checks; answers the
     * upload ids. Files already stored stay the caller's to delete when this fails.
     */
    async receive(
      auth: AuthContext,
      pipelineId: string,
      files: Array<IncomingFile | StoredFile>,
      sentFrom: SentFrom = 'wizard',
    ): Promise<string[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      if (files.length === 0) throw invalid('No file was sent.');
      for (const f of files) {
        uploadSource(pipeline, f.dataSubKind);
        if (sizeOf(f) > MAX_FILE_BYTES) throw tooLarge();
      }
      return store(receiver, pipeline, auth, files, sentFrom);
    },

    /**
     * A call of a published endpoint (modules/endpoints): the body, checked now against the
     * pipeline's endpoint data source, stored as its upload when valid; otherwise 422 with the
     * problems, nothing stored. `auth` is who the endpoint acts for.
     */
    async receiveCall(
      auth: AuthContext,
      pipeline: PipelineView,
      call: { filename: string; mimetype: string; bytes: Uint8Array },
    ) {
      const { source, checked } = await checkCall(receiver, pipeline, 'endpoint', call);
      const { outcome } = checked;
      if (outcome?.status !== 'valid') {
        const problems = outcome?.problems.map((p) => ({ path: p.row === null ? 'body' : `rows.${p.row}`, message: p.message }));
        throw invalid(outcome?.summary ?? checked.lines.map(([, m]) => m).join(' '), problems ?? []);
      }
      return storeCheckedUpload({ pipeline, auth, file: { ...call, dataSubKind: source.dataSubKind }, checked });
    },

    /**
     * A batch of a published listener's messages (modules/listeners): one JSON file of rows,
     * checked now against the pipeline's listener data source. Stored as its upload when valid, and
     * when `keepInvalid` also when not (an invalid upload with its check's log lines). Answers the
     * upload id (none when refused and not kept) and, when invalid, the numbers (from 1) of the
     * rows the check named, or null when it refused the whole file.
     */
    async receiveBatch(
      auth: AuthContext,
      pipeline: PipelineView,
      batch: { filename: string; bytes: Uint8Array; keepInvalid: boolean },
    ): Promise<{ uploadId: string | undefined; valid: boolean; problemRows: number[] | null }> {
      const call = { filename: batch.filename, mimetype: 'application/json', bytes: batch.bytes };
      const { source, checked } = await checkCall(receiver, pipeline, 'listener', call);
      const valid = checked.outcome?.status === 'valid';
      const rows = checked.outcome?.problems.map((p) => p.row) ?? [null];
      const problemRows = valid || rows.includes(null) ? null : (rows as number[]);
      if (!valid && !batch.keepInvalid) return { uploadId: undefined, valid, problemRows };
      const uploadId = await storeCheckedUpload({ pipeline, auth, file: { ...call, dataSubKind: source.dataSubKind }, checked });
      return { uploadId, valid, problemRows };
    },

    /** Fetches the pipeline's real-time sources now and stores what they answer as uploads. */
    async fetchRealtime(auth: AuthContext, pipelineId: string, dataSubKinds: readonly string[]): Promise<string[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      const files: IncomingFile[] = [];
      for (const kind of dataSubKinds) {
        const source = pipeline.dataSources.find((s) => s.dataSubKind === kind);
        if (source?.connectorType !== 'real-time' || !source.url) throw invalid(`No real-time data source ${kind} in pipeline`);
        files.push(await fetchSource(source.url, kind, ctx.config.realtimeSources));
      }
      return store(receiver, pipeline, auth, files, 'wizard');
    },
  };
}

/** Fetches a real-time source the settings allow, as a file of its data source. */
async function fetchSource(url: string, dataSubKind: string, policy: RealtimeSourcePolicy): Promise<IncomingFile> {
  const { bytes, contentType, target } = await fetchRealtimeSource(url, dataSubKind, policy);
  const name = path.basename(target.pathname) || `${dataSubKind}.data`;
  return { dataSubKind, filename: name, mimetype: contentType ?? 'application/octet-stream', bytes };
}
