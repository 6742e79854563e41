import { guard, loginPath, pageTitle } from '@gdb/shared/routes/web-routes';
import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, replace } from 'react-router';
import { requestUi } from '../ground/request/request-ui.ts';
import { hasSession } from '../ground/request/token-store.ts';
import { resetSession, rolesOf, userInfoQuery, VERIFICATION_FAILED } from '../ground/session/session.ts';

/**
 * The route guard of docs/product.md §3.2, run before every navigation: with a token the user info is
 * loaded first (once per session), then the shared rules decide; a failed info load signs out.
 */
export function guardLoader(queryClient: QueryClient) {
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const url = new URL(request.url);
    const hasToken = hasSession();
    let roles: string[] | undefined;
    if (hasToken) {
      try {
        roles = rolesOf(await queryClient.ensureQueryData(userInfoQuery()));
      } catch {
        requestUi().error(VERIFICATION_FAILED, 5);
        resetSession(queryClient);
        throw replace(loginPath(`${url.pathname}${url.search}`));
      }
    }
    const decision = guard(url.pathname, { hasToken, ...(roles ? { roles } : {}) }, url.search);
    if (decision.kind === 'redirect') throw replace(decision.to);
    return null;
  };
}

/** Sets the tab title of the page at `pathname`. */
export function applyPageTitle(pathname: string): void {
  document.title = pageTitle(pathname);
}
