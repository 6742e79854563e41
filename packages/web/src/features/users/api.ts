import {
  idsAnswerSchema,
  type ManagedUser,
  managedUserSchema,
  type PipelinesForAnswer,
  pipelinesForAnswerSchema,
  savedUserSchema,
  type UserSaveBody,
} from '@gdb/shared/users/users.schemas';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../ground/request/api.ts';

export type SavedUser = z.infer<typeof savedUserSchema>;

export const userKeys = {
  all: ['users'] as const,
  list: ['users', 'list'] as const,
  pipelinesFor: (id: string) => ['users', 'pipelinesFor', id] as const,
};

/** GET /users: the users the caller may manage. */
export function usersQuery() {
  return queryOptions({
    queryKey: userKeys.list,
    queryFn: ({ signal }): Promise<ManagedUser[]> => api.get('/users', z.array(managedUserSchema), { signal }),
  });
}

/** GET /users/pipelinesFor: every pipeline and the user's assignments. */
export function pipelinesForQuery(id: string) {
  return queryOptions({
    queryKey: userKeys.pipelinesFor(id),
    queryFn: ({ signal }): Promise<PipelinesForAnswer> =>
      api.get('/users/pipelinesFor', pipelinesForAnswerSchema, { query: { id }, signal }),
    staleTime: 0,
  });
}

/** POST /users: creates (no `_id`) or updates a user. */
export function saveUser(body: UserSaveBody): Promise<SavedUser> {
  return api.post('/users', body, savedUserSchema);
}

/** POST /users/toggle: activates or de-activates users. */
export async function toggleUsers(ids: readonly string[], enabled: boolean): Promise<string[]> {
  return (await api.post('/users/toggle', { ids, enabled }, idsAnswerSchema)).ids;
}

/** DELETE /users: the ids joined by commas. */
export async function deleteUsers(ids: readonly string[]): Promise<string[]> {
  return (await api.delete('/users', idsAnswerSchema, { query: { ids: ids.join(',') } })).ids;
}

/** POST /users/reset-password: mails the user a new create-password link. */
export async function resetPassword(id: string): Promise<void> {
  await api.post('/users/reset-password', { _id: id }, z.null());
}

/** POST /users/reset-tfa: the user sets two-factor up again at the next sign-in. */
export async function resetTfa(id: string): Promise<void> {
  await api.post('/users/reset-tfa', { _id: id }, z.null());
}
