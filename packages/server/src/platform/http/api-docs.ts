import { CODES } from '@gdb/shared/api/envelope';
import { TOKEN_KEYS } from '@gdb/shared/auth/session-storage';
import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors.ts';

/**
 * The page's request interceptor: it sends the access token the web app keeps in the browser
 * (same origin) as `X-Token`, so a signed-in user's browser reads the description and tries calls.
 * The page receives it as source text: its `toString` is that text, with the storage key in it.
 */
function tokenInterceptor(): <T>(request: T) => T {
  const source = `function (request) {
    var token = window.localStorage.getItem(${JSON.stringify(TOKEN_KEYS.token)});
    if (token) request.headers['X-Token'] = token;
    return request;
  }`;
  return Object.assign(<T>(request: T) => request, { toString: () => source });
}

/** Whether a request asks for the description itself (the page around it holds nothing of the API). */
function isDescription(request: FastifyRequest): boolean {
  const url = request.routeOptions.url ?? '';
  return url.endsWith('/docs/json') || url.endsWith('/docs/yaml');
}

/**
 * Options of the API description page: the description answers only a signed-in caller (the
 * access control has checked any token sent) unless it is public.
 */
export function apiDocsOptions(publicDocs: boolean) {
  return {
    uiConfig: { requestInterceptor: tokenInterceptor() },
    uiHooks: {
      onRequest: async (request: FastifyRequest) => {
        if (!publicDocs && !request.auth && isDescription(request)) {
          throw unauthorized(CODES.badToken, 'Sign in to read the API description.');
        }
      },
    },
  };
}
