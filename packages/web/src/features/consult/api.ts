import { listAllFiltersSchema, listAllSchema } from '@gdb/shared/imports/import.schemas';
import { z } from 'zod';
import { api } from '../../ground/request/api.ts';
import { CALL_FAILURES } from '../../ground/request/call-failures.ts';

export const listAll = (query: Record<string, string | number | boolean>, signal?: AbortSignal) =>
  api.get('/imports/listAll', listAllSchema, { query, signal, nothing: CALL_FAILURES.allImports });

export const listAllFilters = (signal?: AbortSignal) => api.get('/imports/listAllFilters', listAllFiltersSchema, { signal });

export const abortImport = (importId: string) =>
  api.post('/imports/abort', { importId }, z.object({ importId: z.string(), state: z.string() }));

/** Answers true when every pipeline is stopping. */
export const abortAll = () => api.post('/imports/abort-all', {}, z.unknown());

export const consultKeys = {
  filters: ['consult', 'importFilters'] as const,
  page: (query: Record<string, string | number | boolean>) => ['consult', 'imports', query] as const,
};
