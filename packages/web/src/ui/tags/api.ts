import { type Tag, type TagSaveBody, tagSchema } from '@gdb/shared/tags/tags.schemas';
import { idsAnswerSchema } from '@gdb/shared/users/users.schemas';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../ground/request/api.ts';

const tagListSchema = z.array(tagSchema);

export const tagKeys = {
  all: ['tags'] as const,
  list: ['tags', 'list'] as const,
};

/** GET /tags/list: every badge, hidden ones included. */
export function tagListQuery() {
  return queryOptions({
    queryKey: tagKeys.list,
    queryFn: ({ signal }): Promise<Tag[]> => api.get('/tags/list', tagListSchema, { signal }),
    staleTime: 30_000,
  });
}

/** POST /tags: creates a badge, or updates the one named by `_id`. */
export function saveTag(body: TagSaveBody): Promise<Tag> {
  return api.post('/tags', body, tagSchema);
}

/** DELETE /tags: the ids joined by commas. */
export async function deleteTags(ids: readonly string[]): Promise<string[]> {
  return (await api.delete('/tags', idsAnswerSchema, { query: { ids: ids.join(',') } })).ids;
}

/** GET /tags/cache-reload: the server reads the badges again. */
export function reloadTags(): Promise<Tag[]> {
  return api.get('/tags/cache-reload', tagListSchema);
}
