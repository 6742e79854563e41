import { type SessionUser, type UserInfo, userInfoSchema } from '@gdb/shared/auth/session.schemas';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { api } from '../request/api.ts';
import { clearTokens, hasSession, subscribeTokens } from '../request/token-store.ts';

/** Said when the user info of a session cannot be loaded: the session ends. */
export const VERIFICATION_FAILED = 'Verification failed, please Login again';

const sessionKeys = {
  all: ['session'] as const,
  info: ['session', 'info'] as const,
};

/** The user info, loaded once per session: never stale, refetched only when invalidated. */
export function userInfoQuery() {
  return queryOptions({
    queryKey: sessionKeys.info,
    queryFn: ({ signal }): Promise<UserInfo> => api.get('/users/info', userInfoSchema, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnMount: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** True while this browser holds a session; re-renders when it signs in or out (in any tab). */
function useHasSession(): boolean {
  return useSyncExternalStore(subscribeTokens, hasSession);
}

/** The signed-in user (the guard has loaded it before any page inside the layout renders). */
export function useSessionUser(): SessionUser | undefined {
  const signedIn = useHasSession();
  return useQuery({ ...userInfoQuery(), enabled: signedIn }).data?.user;
}

const NO_CHECKS: readonly string[] = [];

/** URL prefixes of the check services a form's ajax rule may ask, as the server lists them (none until known). */
export function useFormCheckUrls(): readonly string[] {
  const signedIn = useHasSession();
  return useQuery({ ...userInfoQuery(), enabled: signedIn }).data?.formCheckUrls ?? NO_CHECKS;
}

/** Reloads the user info (after the user's own data changed). */
export function reloadUserInfo(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: sessionKeys.info });
}

/** Role names of a user info. */
export function rolesOf(info: UserInfo | undefined): string[] {
  return info?.user.roles.map((r) => r.name) ?? [];
}

/** Forgets the session in this browser: tokens and every cached answer. */
export function resetSession(queryClient: QueryClient): void {
  clearTokens();
  queryClient.clear();
}

/** Ends the session on the server. */
export async function logoutCall(): Promise<void> {
  await api.post('/users/logout', undefined, z.null());
}
