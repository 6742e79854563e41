import { bulkErrorSchema, type PipelineUpdateData } from '@gdb/shared/pipelines/pipeline-versions.schemas';
import {
  deleteAnswerSchema,
  lockAnswerSchema,
  type UpdateData,
  updateAnswerSchema,
  updateReportSchema,
  versionDocSchema,
  versionRecordSchema,
} from '@gdb/shared/versions/versions.schemas';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../request/api.ts';

/** An update's answer: the new versions and, for pipelines, the country pipelines left as they were. */
const updateOutcomeSchema = updateAnswerSchema.extend({ errors: z.array(bulkErrorSchema).default([]) });

/** The call path of a versioned kind: its version calls live below it (docs/product.md §18.1). */
export type VersionPath = '/schemas' | '/components' | '/sdk' | '/pipelines';

export const versionKeys = {
  all: (path: VersionPath) => ['versions', path] as const,
  graph: (path: VersionPath, id: string) => ['versions', path, 'graph', id] as const,
  report: (path: VersionPath, id: string) => ['versions', path, 'report', id] as const,
};

/** The version calls of one kind, the same six for every kind. */
export function versionCalls(path: VersionPath) {
  return {
    /** GET …/version: the family's versions, by version number. */
    graph: (id: string, signal?: AbortSignal) =>
      api.get(`${path}/version`, z.array(versionRecordSchema), { query: { id }, ...(signal ? { signal } : {}) }),
    /** POST …/version/lock; `force` locks the drafts it depends on too, `country` (pipelines) a master's country pipelines. */
    lock: (id: string, force: boolean, country = false) =>
      api.post(`${path}/version/lock`, path === '/pipelines' ? { id, force, country } : { id, force }, lockAnswerSchema),
    /** POST …/version/new: a draft copy as the next number. */
    create: (id: string) => api.post(`${path}/version/new`, { id }, versionDocSchema),
    /** POST …/version/delete: answers the version to open next. */
    remove: (id: string) => api.post(`${path}/version/delete`, { id }, deleteAnswerSchema),
    /** GET …/version/compute: the update report. */
    compute: (id: string, signal?: AbortSignal) =>
      api.get(`${path}/version/compute`, updateReportSchema, { query: { id }, ...(signal ? { signal } : {}) }),
    /** POST …/version/update: new versions using the chosen newer dependencies (for pipelines, with or without the countries). */
    update: (data: UpdateData & Pick<PipelineUpdateData, 'updateCountries'>) =>
      api.post(`${path}/version/update`, { update_data: data }, updateOutcomeSchema),
  };
}

/** The family's version graph of the version `id`, while `enabled`. */
export function useVersionGraph(path: VersionPath, id: string, enabled = true) {
  return useQuery({
    queryKey: versionKeys.graph(path, id),
    queryFn: ({ signal }) => versionCalls(path).graph(id, signal),
    enabled,
  });
}

/** The update report of the version `id`, read afresh each time it is asked for while `enabled`. */
export function useUpdateReport(path: VersionPath, id: string, enabled = true) {
  return useQuery({
    queryKey: versionKeys.report(path, id),
    queryFn: ({ signal }) => versionCalls(path).compute(id, signal),
    enabled,
    gcTime: 0,
    retry: false,
  });
}
