import { type PipelineView, pipelineViewSchema } from '@gdb/shared/pipelines/pipeline.schemas';
import { api } from '../../ground/request/api.ts';

export const pipelineDocKeys = {
  all: ['pipelines'] as const,
  find: (id: string) => ['pipelines', 'find', id] as const,
};

/** A pipeline version as the editor reads it: write access is the inverse of read_only. */
export type PipelineDocument = PipelineView & { write_access: boolean };

const asDocument = (p: PipelineView): PipelineDocument => ({ ...p, write_access: !p.read_only });

/** GET /pipelines/id: one pipeline version. */
export const findPipeline = async (id: string, signal?: AbortSignal) =>
  asDocument(await api.get('/pipelines/id', pipelineViewSchema, { query: { id }, ...(signal ? { signal } : {}) }));

/** POST /pipelines: creates a pipeline (no `_id`) or saves a draft read at `sys_version`; answers it as saved. */
export const savePipeline = async (body: Record<string, unknown>) =>
  asDocument(await api.post('/pipelines', body, pipelineViewSchema));
