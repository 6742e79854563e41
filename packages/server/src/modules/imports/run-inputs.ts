import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { LAST_LIST_SIZE } from '@gdb/shared/uploads/upload.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import { storedTablesText } from '../uploads/row-tables.ts';
import type { UploadRow } from '../uploads/uploads.repo.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import { RunStepError } from './run-errors.ts';

/** How long a run waits for a real-time source's file to be checked. */
const REALTIME_CHECK_MS = 10 * 60_000;

export type Say = (level: 'error' | 'warn' | 'info' | 'success', message: string, dataSubKind?: string | null) => Promise<void>;

export interface InputDeps {
  pipelines: PipelinesService;
  uploads: UploadsService;
  files: FileStore;
}

/**
 * The rows of every data source, as the JSON text of ctx.input in tables: each data source's value
 * is the list of the tables of its uploads (see uploads/row-tables.ts), which the sandbox turns
 * into one array of rows before the component runs.
 */
export interface GatheredInputs {
  inputJson: string;
  rowCount: number;
}

/** The tables of stored rows files, as the JSON text of one list, without parsing their rows. */
export function joinTables(texts: readonly string[]): string {
  const parts: string[] = [];
  for (const text of texts) {
    const inner = storedTablesText(text);
    if (inner === null) throw new RunStepError('A stored rows file is not readable.');
    if (inner) parts.push(inner);
  }
  return `[${parts.join(',')}]`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The pipeline whose uploads a source reads: the master's for a dataFromMaster source of a country pipeline. */
async function ownerOf(deps: InputDeps, pipeline: PipelineView, source: DataSource): Promise<PipelineView> {
  if (!source.dataFromMaster || !pipeline.masterPipeline) return pipeline;
  const master = await deps.pipelines.repo.byId(pipeline.masterPipeline);
  if (!master) throw new RunStepError(`Data source ${source.dataSubKind} reads the master pipeline, which no longer exists.`);
  return deps.pipelines.toView(master);
}

/** Fetches a real-time source now and waits until its file is checked. */
async function fetchNow(deps: InputDeps, owner: PipelineView, source: DataSource, auth: AuthContext, signal: AbortSignal) {
  const [id] = await deps.uploads.fetchRealtime(auth, owner._id, [source.dataSubKind]);
  if (!id) throw new RunStepError(`Real-time source ${source.dataSubKind} answered nothing.`);
  const deadline = Date.now() + REALTIME_CHECK_MS;
  for (;;) {
    signal.throwIfAborted();
    const row = await deps.uploads.repo.byId(id);
    if (row?.status === 'valid') return row;
    if (row?.status === 'invalid') throw new RunStepError(`Real-time source ${source.dataSubKind}: the data fetched is invalid.`);
    if (Date.now() > deadline) throw new RunStepError(`Real-time source ${source.dataSubKind}: the check took too long.`);
    await sleep(100, signal);
  }
}

/**
 * Gathers the input of a run (DESIGN §8): for a manual source the enabled valid uploads of its last
 * list, oldest first (a country's dataFromMaster source reads the master's); a real-time source is
 * fetched now; endpoint and listener sources give no rows to a run.
 */
export async function gatherInputs(
  deps: InputDeps,
  pipeline: PipelineView,
  auth: AuthContext,
  say: Say,
  signal: AbortSignal,
): Promise<GatheredInputs> {
  const entries: string[] = [];
  let rowCount = 0;
  for (const source of pipeline.dataSources) {
    signal.throwIfAborted();
    const kind = source.dataSubKind;
    const owner = await ownerOf(deps, pipeline, source);
    let used: UploadRow[] = [];
    if (source.connectorType === 'manual') {
      const list = await deps.uploads.repo.lastOf(owner._id, [kind], LAST_LIST_SIZE);
      used = list.filter((u) => u.enabled && u.status === 'valid' && u.rows_key).reverse();
      if (used.length === 0) throw new RunStepError(`No enabled valid upload for data source ${kind}.`);
    } else if (source.connectorType === 'real-time') {
      await say('info', `Fetching real-time source ${kind}.`, kind);
      used = [await fetchNow(deps, owner, source, auth, signal)];
    } else {
      await say(
        'warn',
        `Data source ${kind} (${source.connectorType}) receives its data on its own; it gives no rows to this run.`,
        kind,
      );
    }
    const texts: string[] = [];
    for (const upload of used) {
      texts.push((await deps.files.get(upload.rows_key ?? '')).toString('utf8'));
      rowCount += upload.row_count ?? 0;
      await say('info', `Input ${kind}: ${upload.row_count ?? 0} rows from ${upload.original_filename ?? upload.id}.`, kind);
    }
    entries.push(`${JSON.stringify(kind)}:${joinTables(texts)}`);
  }
  return { inputJson: `{${entries.join(',')}}`, rowCount };
}
