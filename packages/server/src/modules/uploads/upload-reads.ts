import path from 'node:path';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { LAST_LIST_SIZE, type LastList, type UploadView } from '@gdb/shared/uploads/upload.schemas';
import { zipSync } from 'fflate';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { invalid, notFound } from '../../platform/http/errors.ts';
import type { UploadsDeps } from './upload-deps.ts';
import { type RunUpload, toRunUpload, toUploadView } from './upload-views.ts';
import type { UploadRow, uploadsRepo } from './uploads.repo.ts';

type UploadsRepo = ReturnType<typeof uploadsRepo>;

/** A safe download name: the base name, without control or quote characters. */
function downloadName(name: string | null, fallback: string): string {
  const base = [...path.basename(name ?? '')]
    .map((c) => (c.charCodeAt(0) < 0x20 || c === '"' || c === '\\' || c === '/' ? '_' : c))
    .join('')
    .slice(0, 200);
  return base || fallback;
}

/** The pipeline whose uploads a source reads: the master's for a dataFromMaster source. */
async function sourcePipeline(deps: UploadsDeps, pipeline: PipelineView, dataSubKind: string): Promise<PipelineView> {
  const source = pipeline.dataSources.find((s) => s.dataSubKind === dataSubKind);
  if (!source?.dataFromMaster || !pipeline.masterPipeline) return pipeline;
  return (await deps.pipelines.stored(pipeline.masterPipeline)) ?? pipeline;
}

/**
 * What a run of the pipeline takes from one manual data source, and what the wizard shows it
 * takes: every enabled upload that is valid or still being checked, oldest first (the master's
 * for a dataFromMaster source).
 */
async function runRows(repo: UploadsRepo, deps: UploadsDeps, pipeline: PipelineView, dataSubKind: string): Promise<UploadRow[]> {
  const owner = await sourcePipeline(deps, pipeline, dataSubKind);
  return repo.runnableOf(owner._id, dataSubKind);
}

/** Loads uploads by id, refusing any whose pipeline the caller may not read. */
async function readable(repo: UploadsRepo, deps: UploadsDeps, auth: AuthContext, ids: readonly string[]): Promise<UploadRow[]> {
  const rows = await repo.byIds(ids);
  const pipelines = new Set(rows.map((r) => r.pipeline_id));
  for (const id of pipelines) await deps.pipelines.byId(auth, id);
  return rows;
}

/** The lists of uploads the screens and the runs read. */
export function uploadReads(repo: UploadsRepo, deps: UploadsDeps) {
  return {
    async statuses(auth: AuthContext, ids: readonly string[]): Promise<UploadView[]> {
      return (await readable(repo, deps, auth, ids)).map(toUploadView);
    },

    /** The last uploads of one data source (the master's for a dataFromMaster source), newest first. */
    async last(auth: AuthContext, pipelineId: string, dataSubKind: string): Promise<UploadView[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      if (!pipeline.dataSources.some((s) => s.dataSubKind === dataSubKind))
        throw invalid(`No data source ${dataSubKind} in pipeline`);
      const owner = await sourcePipeline(deps, pipeline, dataSubKind);
      return (await repo.lastOf(owner._id, [dataSubKind], LAST_LIST_SIZE)).map(toUploadView);
    },

    /** The uploads a run of the pipeline takes from one manual data source (see `runRows`), whoever asks. */
    runUploads: async (pipeline: PipelineView, dataSubKind: string): Promise<RunUpload[]> =>
      (await runRows(repo, deps, pipeline, dataSubKind)).map(toRunUpload),
    /** Uploads as they are now, whoever asks (a run following the checks of its inputs). */
    current: async (ids: readonly string[]): Promise<RunUpload[]> => (await repo.byIds(ids)).map(toRunUpload),

    /** The last uploads of every manual and real-time data source of a pipeline, and every older one a run takes. */
    async lastAll(auth: AuthContext, pipelineId: string): Promise<LastList[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      const lists: LastList[] = [];
      for (const s of pipeline.dataSources.filter((d) => d.connectorType === 'manual' || d.connectorType === 'real-time')) {
        const owner = await sourcePipeline(deps, pipeline, s.dataSubKind);
        // Every upload a run takes (runRows) is listed, older ones too: none is merged unseen.
        const shown = await repo.shownOf(owner._id, s.dataSubKind, LAST_LIST_SIZE, s.connectorType === 'manual');
        lists.push({ dataSubKind: s.dataSubKind, data: shown.map(toUploadView) });
      }
      return lists;
    },

    /** The output files of the pipeline's newest import that produced any, newest first (the Export screen). */
    async outputs(auth: AuthContext, pipelineId: string): Promise<UploadView[]> {
      const pipeline = await deps.pipelines.byId(auth, pipelineId);
      return (await repo.latestOutputs(pipeline._id)).map(toUploadView);
    },
  };
}

/** What a user does with uploads they may read: turn them on or off, and download them. */
export function uploadChoices(repo: UploadsRepo, deps: UploadsDeps) {
  return {
    /** Turns an upload on or off for the next runs. */
    async setEnabled(auth: AuthContext, id: string, enabled: boolean): Promise<UploadView> {
      const [row] = await readable(repo, deps, auth, [id]);
      if (!row) throw notFound('Upload not found.');
      await repo.update(id, { enabled });
      return toUploadView({ ...row, enabled });
    },

    /** One file as itself, several as export.zip. */
    async exportFiles(auth: AuthContext, ids: readonly string[]): Promise<{ filename: string; bytes: Uint8Array }> {
      const rows = await readable(repo, deps, auth, ids);
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
  };
}
