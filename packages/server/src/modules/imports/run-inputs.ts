import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { counted } from '@gdb/shared/values/counted';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import type { JsonParts } from '../../platform/files/json-parts.ts';
import { storedTablesBytes } from '../../platform/files/row-tables.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import type { RunUpload, UploadsService } from '../uploads/uploads.service.ts';
import { waitForChecks } from './check-wait.ts';
import { type SaidLine, type Say, sayAll } from './run-context.ts';
import { RunStepError } from './run-errors.ts';
import { sleep } from './sleep.ts';

/** How long a run waits for a real-time source's file to be checked. */
const REALTIME_CHECK_MS = 10 * 60_000;
/** Stored rows files a run reads at once. */
const READS_AT_ONCE = 8;

export interface InputDeps {
  pipelines: Pick<PipelinesService, 'stored'>;
  uploads: Pick<UploadsService, 'runUploads' | 'current' | 'checkEnded' | 'fetchRealtime'>;
  files: Pick<FileStore, 'get'>;
  /** How long the run waits, in all, for the uploads still being checked when it starts (ms). */
  waitForChecksMs: number;
}

/**
 * The rows of every data source, as the JSON text of ctx.input in tables: each data source's value
 * is the list of the tables of its uploads (see platform/files/row-tables.ts), which the sandbox turns
 * into one array of rows before the component runs. The stored files' bytes are parts of that text
 * as they were read, handed over to the run: not decoded, joined or copied here.
 */
interface GatheredInputs {
  inputJson: JsonParts;
  rowCount: number;
  /** The pipeline's own uploads the run takes (not a master's), marked imported when it ends done. */
  taken: string[];
}

/** The tables of stored rows files, as the parts of the JSON text of one list, without parsing their rows. */
function joinTables(files: readonly Uint8Array[]): (string | Uint8Array)[] {
  const parts: (string | Uint8Array)[] = ['['];
  for (const file of files) {
    const inner = storedTablesBytes(file);
    if (inner === null) throw new RunStepError('A stored rows file is not readable.');
    if (inner.length === 0) continue;
    if (parts.length > 1) parts.push(',');
    parts.push(inner);
  }
  parts.push(']');
  return parts;
}

/** The pipeline whose uploads a source reads: the master's for a dataFromMaster source of a country pipeline. */
async function ownerOf(deps: InputDeps, pipeline: PipelineView, source: DataSource): Promise<PipelineView> {
  if (!source.dataFromMaster || !pipeline.masterPipeline) return pipeline;
  const master = await deps.pipelines.stored(pipeline.masterPipeline);
  if (!master) throw new RunStepError(`Data source ${source.dataSubKind} reads the master pipeline, which no longer exists.`);
  return master;
}

/** Fetches a real-time source now and waits until its file is checked. */
async function fetchNow(deps: InputDeps, owner: PipelineView, source: DataSource, auth: AuthContext, signal: AbortSignal) {
  const [id] = await deps.uploads.fetchRealtime(auth, owner._id, [source.dataSubKind]);
  if (!id) throw new RunStepError(`Real-time source ${source.dataSubKind} answered nothing.`);
  const deadline = Date.now() + REALTIME_CHECK_MS;
  for (;;) {
    signal.throwIfAborted();
    const [upload] = await deps.uploads.current([id]);
    if (upload?.status === 'valid') return upload;
    if (upload?.status === 'invalid')
      throw new RunStepError(`Real-time source ${source.dataSubKind}: the data fetched is invalid.`);
    if (Date.now() > deadline) throw new RunStepError(`Real-time source ${source.dataSubKind}: the check took too long.`);
    await sleep(100, signal);
  }
}

/**
 * A manual source's uploads for this run: what the wizard showed (`uploads.runUploads`), those
 * still being checked waited for until `deadline`, then taken when valid or skipped (said why).
 * An endpoint or listener source's are taken alike, but none is no failure: its calls or messages
 * may all have been taken by an earlier run.
 */
async function manualUploads(deps: InputDeps, pipeline: PipelineView, source: DataSource, run: RunOf): Promise<RunUpload[]> {
  const kind = source.dataSubKind;
  const listed = await deps.uploads.runUploads(pipeline, kind);
  const checking = listed.filter((u) => u.status !== 'valid');
  const checked = checking.length > 0 ? await waitForChecks(deps.uploads, checking, kind, run) : new Map();
  const used = listed.map((u) => checked.get(u._id) ?? u).filter((u) => u.enabled && u.status === 'valid' && u.rowsKey !== null);
  if (used.length === 0 && source.connectorType === 'manual') {
    throw new RunStepError(`No enabled valid upload for data source ${kind}.`);
  }
  if (used.length === 0) await run.say('info', `Data source ${kind} (${source.connectorType}) has no new data.`, kind);
  return used;
}

/** The stored rows files of these uploads, in their order, READS_AT_ONCE files read at a time. */
async function readRows(files: InputDeps['files'], uploads: readonly RunUpload[], signal: AbortSignal): Promise<Uint8Array[]> {
  const read: Uint8Array[] = new Array(uploads.length);
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < uploads.length; i = next++) {
      signal.throwIfAborted();
      read[i] = await files.get(uploads[i]?.rowsKey ?? '');
    }
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, uploads.length) }, reader));
  return read;
}

/** What the steps of gathering know of the run: its logs, its stop signal and when waiting for checks ends. */
interface RunOf {
  say: Say;
  signal: AbortSignal;
  deadline: number;
}

/** The uploads one data source gives the run (an endpoint's calls and a listener's batches are its uploads). */
async function sourceUploads(deps: InputDeps, pipeline: PipelineView, source: DataSource, auth: AuthContext, run: RunOf) {
  const kind = source.dataSubKind;
  const owner = await ownerOf(deps, pipeline, source);
  if (source.connectorType !== 'real-time') return manualUploads(deps, pipeline, source, run);
  await run.say('info', `Fetching real-time source ${kind}.`, kind);
  return [await fetchNow(deps, owner, source, auth, run.signal)];
}

/**
 * Gathers the input of a run: for a manual source every enabled valid upload, oldest first (a
 * country's dataFromMaster source reads the master's), waiting a bounded time for those still
 * being checked; a real-time source is fetched now; an endpoint or listener source gives its uploads too.
 * A master's uploads that a country's dataFromMaster source reads are not in `taken`: the
 * master's other country pipelines read them too.
 */
export async function gatherInputs(
  deps: InputDeps,
  pipeline: PipelineView,
  auth: AuthContext,
  say: Say,
  signal: AbortSignal,
): Promise<GatheredInputs> {
  const run: RunOf = { say, signal, deadline: Date.now() + deps.waitForChecksMs };
  const parts: (string | Uint8Array)[] = ['{'];
  let rowCount = 0;
  const taken: string[] = [];
  for (const source of pipeline.dataSources) {
    signal.throwIfAborted();
    const kind = source.dataSubKind;
    const uploads = await sourceUploads(deps, pipeline, source, auth, run);
    const files = await readRows(deps.files, uploads, signal);
    const lines: SaidLine[] = [];
    for (const upload of uploads) {
      rowCount += upload.rowCount ?? 0;
      if (upload.pipelineId === pipeline._id) taken.push(upload._id);
      lines.push([
        'info',
        `Input ${kind}: ${counted(upload.rowCount ?? 0, 'row')} from ${upload.originalFilename ?? upload._id}.`,
        kind,
      ]);
      // A file made by the review of an invalid upload: who corrected what is on record.
      if (upload.correctedFrom) {
        lines.push([
          'info',
          `Input ${kind}: ${upload.originalFilename ?? upload._id} was corrected in a review; its corrections are on the Activity page.`,
          kind,
        ]);
      }
    }
    await sayAll(say, lines);
    parts.push(`${parts.length > 1 ? ',' : ''}${JSON.stringify(kind)}:`, ...joinTables(files));
  }
  parts.push('}');
  return { inputJson: parts, rowCount, taken };
}
