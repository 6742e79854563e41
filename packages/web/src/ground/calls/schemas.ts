import {
  type SchemaSaveBody,
  schemaByNameSchema,
  schemaDocumentSchema,
  schemaGenerateAnswerSchema,
  schemaListEntrySchema,
} from '@gdb/shared/schemas/schemas.schemas';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../request/api.ts';

export const schemaKeys = {
  all: ['schemas'] as const,
  list: ['schemas', 'list'] as const,
  find: (id: string) => ['schemas', 'find', id] as const,
};

/** GET /schemas/list: every version of every data model, for pickers. */
const schemaList = (signal?: AbortSignal) => api.get('/schemas/list', z.array(schemaListEntrySchema), signal ? { signal } : {});

/** The data model versions a picker offers, read when it mounts. */
export function useSchemaList() {
  return useQuery({ queryKey: schemaKeys.list, queryFn: ({ signal }) => schemaList(signal), retry: false });
}

/** GET /schemas/find: one data model version ('Cannot load schema {id} from server' when missing). */
export const findSchema = (id: string, signal?: AbortSignal) =>
  api.get('/schemas/find', schemaDocumentSchema, { query: { id }, ...(signal ? { signal } : {}) });

/** GET /schemas/byname: the version a name reads. */
export const schemaByName = (name: string) => api.get('/schemas/byname', schemaByNameSchema, { query: { name } });

/** A stored system data model a screen draws its form from (rt-pipeline, rt-component, rt-sdk-schema), read once. */
export function useFormModel(name: string) {
  return useQuery({
    queryKey: [...schemaKeys.all, 'byname', name],
    queryFn: () => schemaByName(name),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** POST /schemas: creates a data model (no `_id`) or saves a draft; answers the saved version. */
export const saveSchema = (body: SchemaSaveBody) => api.post('/schemas', body, schemaDocumentSchema);

/** POST /schemas/generate: one data model inferred per example file. */
export function generateSchemas(files: readonly File[], omitStartingArray: boolean) {
  const form = new FormData();
  form.append('omitStartingArray', String(omitStartingArray));
  for (const file of files) form.append('file', file, file.name);
  return api.post('/schemas/generate', form, schemaGenerateAnswerSchema);
}
