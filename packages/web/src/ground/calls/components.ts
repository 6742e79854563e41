import { type ComponentSaveBody, componentSchema } from '@gdb/shared/components/components.schemas';
import { api } from '../request/api.ts';

export const componentKeys = {
  all: ['components'] as const,
  find: (id: string) => ['components', 'find', id] as const,
};

/** GET /components/find: one component version. */
export const findComponent = (id: string, signal?: AbortSignal) =>
  api.get('/components/find', componentSchema, { query: { id }, ...(signal ? { signal } : {}) });

/**
 * POST /components: creates a component (a name and folder, no `_id`) or saves a draft's full
 * body, refused (409) when `sys_version` is older than the stored one; answers the saved version.
 */
export const saveComponent = (body: ComponentSaveBody) => api.post('/components', body, componentSchema);
