import {
  type MassComputeEntry,
  type MassComputeKind,
  massComputeAnswerSchema,
  massLockAnswerSchema,
  type PipelineUpdateData,
  pipelineUpdateAnswerSchema,
} from '@gdb/shared/pipelines/pipeline-versions.schemas';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../ground/request/api.ts';

export const updatesKeys = {
  all: ['pipelines', 'mass-compute'] as const,
  list: (kind: MassComputeKind) => ['pipelines', 'mass-compute', kind] as const,
};

/** GET /pipelines/version/mass-compute: the pipelines that can be updated (with their reports) or locked now. */
const massCompute = (kind: MassComputeKind, signal?: AbortSignal) =>
  api.get('/pipelines/version/mass-compute', massComputeAnswerSchema, { query: { kind }, ...(signal ? { signal } : {}) });

/** POST /pipelines/version/mass-lock: locks the versions one after the other. */
export const massLock = (ids: readonly string[]) => api.post('/pipelines/version/mass-lock', { ids }, massLockAnswerSchema);

/** POST /pipelines/version/mass-update: applies the payloads one after the other. */
export const massUpdate = (payloads: readonly PipelineUpdateData[]) =>
  api.post('/pipelines/version/mass-update', payloads, pipelineUpdateAnswerSchema);

/** The update list or the lock list, read afresh each time the tab shows. */
export function usePipelineList(kind: MassComputeKind) {
  return useQuery({
    queryKey: updatesKeys.list(kind),
    queryFn: ({ signal }) => massCompute(kind, signal),
    gcTime: 0,
    retry: false,
  });
}

/** The update payload of an entry of the update list: every dependency with a newer version, the jobs as its report says
 * (its countries are listed once it is updated, so they are not updated with it). */
export function updatePayloadOf(entry: MassComputeEntry): PipelineUpdateData {
  const data = entry.report?.data;
  const newer = (list: { doc: { _id: string }; needUpdate: boolean }[] | undefined) =>
    (list ?? []).filter((e) => e.needUpdate).map((e) => e.doc._id);
  return {
    id: entry.doc._id,
    schemasToUpdate: newer(data?.schemas),
    componentsToUpdate: newer(data?.components),
    sdkToUpdate: newer(data?.sdk),
    pipelinesToUpdate: newer(data?.pipelines),
    updateCountries: false,
    updateJobs: entry.report?.updateJobs ?? false,
  };
}
