import { pipelineViewSchema, userPipelinesSchema } from '@gdb/shared/pipelines/pipeline.schemas';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../request/api.ts';
import { CALL_FAILURES } from '../request/call-failures.ts';

const pipelineKeys = {
  all: ['pipelines'] as const,
  mine: ['pipelines', 'mine'] as const,
  masters: ['pipelines', 'masters'] as const,
};

/** GET /users/pipelines: the filter lists and the pipelines the caller may use. */
export const userPipelines = (signal?: AbortSignal) =>
  api.get('/users/pipelines', userPipelinesSchema, { signal, nothing: CALL_FAILURES.userPipelines });

/** The pipelines the signed-in user may use, one cached answer for every screen that lists them. */
export function useUserPipelines() {
  return useQuery({ queryKey: pipelineKeys.mine, queryFn: ({ signal }) => userPipelines(signal) });
}

/** GET /pipelines/masters: the master pipelines the caller may work on. */
const masterPipelines = (signal?: AbortSignal) => api.get('/pipelines/masters', z.array(pipelineViewSchema), { signal });

/** The master pipelines, for the pipeline selector. */
export function useMasterPipelines() {
  return useQuery({ queryKey: pipelineKeys.masters, queryFn: ({ signal }) => masterPipelines(signal) });
}
