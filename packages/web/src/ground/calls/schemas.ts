import { schemaListEntrySchema } from '@gdb/shared/schemas/schemas.schemas';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../request/api.ts';

const schemaKeys = {
  list: ['schemas', 'list'] as const,
};

/** GET /schemas/list: every version of every data model, for pickers. */
const schemaList = (signal?: AbortSignal) => api.get('/schemas/list', z.array(schemaListEntrySchema), signal ? { signal } : {});

/** The data model versions a picker offers, read when it mounts. */
export function useSchemaList() {
  return useQuery({ queryKey: schemaKeys.list, queryFn: ({ signal }) => schemaList(signal), retry: false });
}
