import {
  type CreateImportBody,
  currentJobSchema,
  type EditJobBody,
  jobCreatedSchema,
  listScheduledSchema,
} from '@gdb/shared/imports/import.schemas';
import { pipelineViewSchema } from '@gdb/shared/pipelines/pipeline.schemas';
import { uploadViewSchema } from '@gdb/shared/uploads/upload.schemas';
import { z } from 'zod';
import { api } from '../../ground/request/api.ts';
import { CALL_FAILURES } from '../../ground/request/call-failures.ts';

export const pipelinesOfMaster = (id: string, signal?: AbortSignal) =>
  api.get('/pipelines/pipelinesOfMaster', z.array(pipelineViewSchema), { query: { id }, signal });

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
