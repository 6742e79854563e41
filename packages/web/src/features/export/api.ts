import { parseDownloadReference } from '@gdb/shared/imports/import-rules';
import { liveLogSchema } from '@gdb/shared/live/live.schemas';
import { type UploadView, uploadViewSchema } from '@gdb/shared/uploads/upload.schemas';
import { z } from 'zod';
import { api } from '../../app/request/api.ts';

/** How many of the newest imports are searched for output files. */
const IMPORTS_SEARCHED = 5;

export const pipelineImports = (pipelineId: string, signal?: AbortSignal) =>
  api.get('/imports/pipeline', z.array(z.string()), { query: { pipelineId }, signal });

export const importLogs = (id: string, signal?: AbortSignal) =>
  api.get('/logs/jobs', z.array(liveLogSchema), { query: { id }, signal });

export const uploadStatuses = (ids: readonly string[], signal?: AbortSignal) =>
  api.get('/uploads/status', z.array(uploadViewSchema), { query: { ids: ids.join(',') }, signal });

/**
 * The latest output files of a pipeline: those its newest import with files named in
 * 'Data download reference : ' log lines produced.
 */
export async function latestOutputs(pipelineId: string, signal?: AbortSignal): Promise<UploadView[]> {
  const ids = await pipelineImports(pipelineId, signal);
  for (const importId of ids.slice(0, IMPORTS_SEARCHED)) {
    const refs = (await importLogs(importId, signal)).flatMap((l) => parseDownloadReference(l.message)?.uploadId ?? []);
    if (refs.length) return uploadStatuses([...new Set(refs)], signal);
  }
  return [];
}
