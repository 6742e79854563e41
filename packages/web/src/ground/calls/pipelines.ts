import { userPipelinesSchema } from '@gdb/shared/pipelines/pipeline.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../request/api.ts';
import { CALL_FAILURES } from '../request/call-failures.ts';

const pipelineKeys = {
  mine: ['pipelines', 'mine'] as const,
};

/** GET /users/pipelines: the filter lists and the pipelines the caller may use. */
export const userPipelines = (signal?: AbortSignal) =>
  api.get('/users/pipelines', userPipelinesSchema, { signal, nothing: CALL_FAILURES.userPipelines });

/** The pipelines the signed-in user may use, one cached answer for every screen that lists them. */
export function useUserPipelines() {
  return useQuery({ queryKey: pipelineKeys.mine, queryFn: ({ signal }) => userPipelines(signal) });
}
