import { uploadViewSchema } from '@gdb/shared/uploads/upload.schemas';
import { z } from 'zod';
import { api } from '../../ground/request/api.ts';

/** The output files of a pipeline's latest run that wrote any (one per data sink), newest first. */
export const latestOutputs = (pipelineId: string, signal?: AbortSignal) =>
  api.get('/uploads/outputs', z.array(uploadViewSchema), { query: { pipelineId }, signal });
