import { componentSchema } from '@gdb/shared/components/components.schemas';
import { componentHierarchySchema, testFileRowsSchema, usageSchema } from '@gdb/shared/components/hierarchy.schemas';
import { runResultSchema, stopResultSchema } from '@gdb/shared/components/run.schemas';
import { schemaDocumentSchema } from '@gdb/shared/schemas/schemas.schemas';
import { sdkListEntrySchema } from '@gdb/shared/sdk/sdk.schemas';
import { z } from 'zod';
import { api } from '../../ground/request/api.ts';

export const editorKeys = {
  documentation: ['components', 'documentation'] as const,
  many: (ids: readonly string[]) => ['components', 'many', ...ids] as const,
  schemas: (ids: readonly string[]) => ['schemas', 'many', ...ids] as const,
};

/** GET /components/documentation: the SDK functions a component may call, with their documentation. */
export const sdkDocumentation = (signal?: AbortSignal) =>
  api.get('/components/documentation', z.array(sdkListEntrySchema), signal ? { signal } : {});

/** GET /components?ids=: the component versions the instances of a workflow run. */
export const componentsByIds = (ids: readonly string[], signal?: AbortSignal) =>
  ids.length === 0
    ? Promise.resolve([])
    : api.get('/components', z.array(componentSchema), { query: { ids: ids.join(',') }, ...(signal ? { signal } : {}) });

/** GET /schemas?ids=: the data models of the ports shown. */
export const schemasByIds = (ids: readonly string[], signal?: AbortSignal) =>
  ids.length === 0
    ? Promise.resolve([])
    : api.get('/schemas', z.array(schemaDocumentSchema), { query: { ids: ids.join(',') }, ...(signal ? { signal } : {}) });

/** POST /components/{id}/execute: a test run with ctx.input and ctx.rt_context; its log lines stream on the live channel under `runId`. */
export const executeComponent = (
  id: string,
  payload: Record<string, unknown>,
  rtContext: Record<string, unknown>,
  runId?: string,
) => api.post(`/components/${encodeURIComponent(id)}/execute`, { payload, rt_context: rtContext, runId }, runResultSchema);

/** POST /components/{id}/stop: cancels the caller's running test of that version. */
export const stopComponent = (id: string) => api.post(`/components/${encodeURIComponent(id)}/stop`, {}, stopResultSchema);

/** GET /components/{id}/js-code: the program the version compiles to. */
export const componentJsCode = (id: string) => api.get(`/components/${encodeURIComponent(id)}/js-code`, z.string());

/** GET /components/usages?id=: the components and pipelines that use a component version. */
export const componentUsages = (id: string, signal?: AbortSignal) =>
  api.get('/components/usages', z.array(usageSchema), { query: { id }, ...(signal ? { signal } : {}) });

/** GET /components/{id}/dependencies: what the version runs, what runs it, and the pipelines invoking them. */
export const componentHierarchy = (id: string, signal?: AbortSignal) =>
  api.get(`/components/${encodeURIComponent(id)}/dependencies`, componentHierarchySchema, signal ? { signal } : {});

/** POST /components/test-file: the rows of a CSV, XLSX, XLS or JSON file, for the test's ctx.input. */
export function readTestFile(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post('/components/test-file', form, testFileRowsSchema);
}
