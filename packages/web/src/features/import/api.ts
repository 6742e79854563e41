import {
  type CreateImportBody,
  currentJobSchema,
  type EditJobBody,
  jobCreatedSchema,
  listScheduledSchema,
} from '@gdb/shared/imports/import.schemas';
import { pipelineViewSchema, userPipelinesSchema } from '@gdb/shared/pipelines/pipeline.schemas';
import { lastListSchema, uploadViewSchema } from '@gdb/shared/uploads/upload.schemas';
import { z } from 'zod';
import { api } from '../../ground/request/api.ts';
import { CALL_FAILURES } from '../../ground/request/call-failures.ts';

export const userPipelines = (signal?: AbortSignal) =>
  api.get('/users/pipelines', userPipelinesSchema, { signal, nothing: CALL_FAILURES.userPipelines });

export const pipelinesOfMaster = (id: string, signal?: AbortSignal) =>
  api.get('/pipelines/pipelinesOfMaster', z.array(pipelineViewSchema), { query: { id }, signal });

export const lastUploads = (pipelineId: string, signal?: AbortSignal) =>
  api.get('/uploads/last-all', z.array(lastListSchema), { query: { pipelineId }, signal, nothing: CALL_FAILURES.lastUploads });

/** Sends the chosen files, one part per data source named by its dataSubKind; answers the upload ids. */
export function uploadFiles(pipelineId: string, files: ReadonlyMap<string, File>): Promise<string[]> {
  const form = new FormData();
  form.append('pipelineId', pipelineId);
  for (const [dataSubKind, file] of files) form.append(dataSubKind, file, file.name);
  return api.post('/uploads', form, z.array(z.string()), { nothing: CALL_FAILURES.uploadFiles });
}

export const fetchRealtime = (pipelineId: string, dataSubKinds: string[]) =>
  api.post('/uploads/realtime', { pipelineId, dataSubKinds }, z.array(z.string()));

export const setUploadEnabled = (id: string, enabled: boolean) => api.post('/uploads/disable', { id, enabled }, uploadViewSchema);

export const currentJob = (pipelineId: string, signal?: AbortSignal) =>
  api.get('/imports/job', currentJobSchema, { query: { pipelineId }, signal });

export const createImport = (body: CreateImportBody) => api.post('/imports', body, jobCreatedSchema);

export const editJob = (body: EditJobBody) => api.post('/imports/job', body, jobCreatedSchema);

export const deleteJob = (jobId: string) => api.delete('/imports/job', z.unknown(), { query: { jobId } });

export const deleteImport = (importId: string) =>
  api.delete('/imports', z.unknown(), { query: { importId }, nothing: CALL_FAILURES.deleteImport });

export const listScheduled = (signal?: AbortSignal) => api.get('/imports/listScheduled', listScheduledSchema, { signal });

/** Downloads uploads: one file as itself, several as export.zip. */
export async function exportUploads(uploadIds: string[]): Promise<void> {
  const file = await api.download('/uploads/export', { uploadIds });
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename ?? 'export.zip';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
