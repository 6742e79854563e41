import path from 'node:path';
import type { DataSource } from '@gdb/shared/pipelines/pipeline.schemas';
import { MIME_GROUPS } from '@gdb/shared/reference/mimetypes';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/index.ts';
import { sourceMappings } from './column-mappings.ts';
import type { PooledOutcome } from './parsing/parse-file.ts';
import type { UploadDataModel, UploadLogLine, UploadsDeps } from './upload-deps.ts';
import { type UploadRow, uploadsRepo } from './uploads.repo.ts';

/** How often a check renews its claim on its upload. */
const CLAIM_RENEW_MS = 10_000;
/** A claim not renewed for this long, or an upload never claimed for this long, belongs to an instance gone. */
const CLAIM_STALE_MS = 30_000;

/** A log line of a file's check: its level and message. */
type CheckLine = [level: UploadLogLine['level'], message: string];

/** A file's check: its log lines, and the parse's outcome (null when the data source cannot check it). */
export interface CheckOutcome {
  lines: CheckLine[];
  outcome: PooledOutcome | null;
}

/**
 * Checks a file against its data source (its content type and data model): the log lines and
 * the parse's outcome, without touching the upload's row. `bytes` are the file's, or a way to
 * read them back from the store.
 */
export async function checkFile(
  ctx: AppContext,
  deps: UploadsDeps,
  file: { pipelineId: string; source: DataSource | undefined; dataSubKind: string; filename: string | null },
  bytes: Uint8Array | (() => Promise<Uint8Array>),
): Promise<CheckOutcome> {
  const { source, dataSubKind, filename } = file;
  const lines: CheckLine[] = [];
  if (!source) return { lines: [['error', `No data source ${dataSubKind} in pipeline`]], outcome: null };
  let dataModel: UploadDataModel | null = null;
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
  const request = {
    bytes,
    group: source.contentType,
    dataModel: dataModel?.jsonSchema ?? null,
    dataModelKey: dataModel?.key,
    limits: ctx.config.parseLimits,
    // The data source's column mappings: the one stored for the file's header renames its columns.
    columnMappings: dataModel ? await sourceMappings(ctx, file.pipelineId, dataSubKind) : undefined,
  };
  return { lines, outcome: await deps.parser.parse(request) };
}

/** What a finished check records of its upload: the row's fields and the log lines, in order. */
export interface OutcomeRecord {
  fields: { status: 'valid' | 'invalid'; row_count?: number | null; rows_key?: string };
  lines: CheckLine[];
}

/** The checked rows a finished check stores as a file of their own: a valid outcome's, when it has them. */
export function rowsToStore(checked: CheckOutcome): Uint8Array | null {
  const { outcome } = checked;
  return outcome?.status === 'valid' && outcome.rowsBytes !== null ? outcome.rowsBytes : null;
}

/**
 * What a finished check records, its rows (see rowsToStore) stored under `rowsKey` (given exactly
 * when it has rows to store): invalid when the data source could not check the file, else valid
 * with its rows' key, or invalid with the problems; the check's lines, notes and problems, then its
 * summary.
 */
export function recordOf(checked: CheckOutcome, rowsKey: string | undefined): OutcomeRecord {
  const lines: CheckLine[] = [...checked.lines];
  const { outcome } = checked;
  if (outcome === null) return { fields: { status: 'invalid' }, lines };
  for (const note of outcome.notes) lines.push([note.level, note.message]);
  for (const p of outcome.problems) lines.push(['error', p.message]);
  if (rowsKey !== undefined) {
    lines.push(['success', outcome.summary]);
    return { fields: { status: 'valid', row_count: outcome.rowCount, rows_key: rowsKey }, lines };
  }
  if (outcome.problems.length !== 1 || outcome.problems[0]?.message !== outcome.summary) lines.push(['error', outcome.summary]);
  return { fields: { status: 'invalid', row_count: outcome.rowCount }, lines };
}

/** What a finished check records (see recordOf), its rows stored first, `within` a transaction when given. */
async function outcomeRecord(
  deps: Pick<UploadsDeps, 'files'>,
  checked: CheckOutcome,
  within?: Kysely<Database>,
): Promise<OutcomeRecord> {
  const rows = rowsToStore(checked);
  return recordOf(checked, rows === null ? undefined : await deps.files.put(rows, within));
}

/** A pipeline's data source as it is now, or undefined when the pipeline or the source is gone. */
async function sourceOf(deps: UploadsDeps, pipelineId: string, dataSubKind: string): Promise<DataSource | undefined> {
  return (await deps.pipelines.stored(pipelineId))?.dataSources.find((s) => s.dataSubKind === dataSubKind);
}

/** Checks a stored upload against its data source as it is now, reading its file back from the store. */
async function checkStored(ctx: AppContext, deps: UploadsDeps, row: UploadRow, fileKey: string): Promise<CheckOutcome> {
  const source = await sourceOf(deps, row.pipeline_id, row.data_sub_kind);
  const file = { pipelineId: row.pipeline_id, source, dataSubKind: row.data_sub_kind, filename: row.original_filename };
  return checkFile(ctx, deps, file, () => deps.files.get(fileKey));
}

/**
 * Checks one upload and records the result; `started` is its check when it began as the file
 * arrived (else the file is read back from the store and checked now).
 */
async function parseOne(ctx: AppContext, deps: UploadsDeps, id: string, started?: Promise<CheckOutcome>): Promise<void> {
  const repo = uploadsRepo(ctx.db.kysely);
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
    const checked = await (started ?? checkStored(ctx, deps, row, fileKey));
    const recorded = await outcomeRecord(deps, checked);
    await repo.update(id, recorded.fields);
    for (const [level, message] of recorded.lines) say(level, message);
  } catch (error) {
    ctx.log.error({ err: error, uploadId: id }, 'upload processing failed');
    await repo.release(id);
    throw error;
  } finally {
    clearInterval(heartbeat);
    await deps.log(lines);
  }
}

/** The background checks of uploads: those started here, and those taken over from a stop or a crash. */
export function uploadChecks(ctx: AppContext, deps: UploadsDeps) {
  const repo = uploadsRepo(ctx.db.kysely);
  let watcher: NodeJS.Timeout | undefined;
  const running = new Set<Promise<void>>();
  /** Who waits for the next check of this instance to end (`nextEnd`). */
  const waiting = new Set<() => void>();

  /** Parses an upload in the background; failures are logged and the upload is left to resume. */
  function schedule(id: string, started?: Promise<CheckOutcome>): void {
    const task = parseOne(ctx, deps, id, started).catch(() => undefined);
    running.add(task);
    void task.finally(() => {
      running.delete(task);
      for (const wake of [...waiting]) wake();
    });
  }

  /**
   * Resolves when a check of this instance next ends (its result recorded), after `ms` at the
   * latest (a check on another instance is seen only by reading), or when the signal aborts.
   */
  function nextEnd(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiting.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
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

  return {
    schedule,
    resume,
    nextEnd,

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

export type UploadChecks = ReturnType<typeof uploadChecks>;
