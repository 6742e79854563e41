import { type Access, accessOf, allows } from '@gdb/shared/api/access';
import { CODES } from '@gdb/shared/api/envelope';
import type { UserInfo } from '@gdb/shared/auth/session.schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../http/errors.ts';

/** Who is calling, once the token is checked. */
export interface AuthContext {
  userId: string;
  sessionId: string;
  userName: string;
  roles: string[];
  /**
   * What the access checks read of the caller's user, read with their session and kept with it in
   * the session cache (a change to them forgets it, like one to the roles). Absent for callers made
   * inside the server (import runs, tests), whose checks read the user instead.
   */
  access?: CallerProfile;
  /** The signed-in user as the web shell reads it, read with the session and kept with it. */
  info?: UserInfo;
}

/** The caller's project badges, unrestricted-upload flag and, for the role user, assigned pipeline families. */
export interface CallerProfile {
  badges: readonly string[];
  unrestrictedUpload: boolean;
  /** The pipeline families assigned to the user and active; empty unless the user has the role user. */
  assignedFamilies: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

export type Authenticate = (token: string) => Promise<AuthContext>;

/** A route as the access control saw it registered: its table key and the policy bound to it. */
export interface RegisteredRoute {
  method: string;
  url: string;
  key: string;
  access: Access | undefined;
}

/** The signed-in caller, or a 401 when the route let an anonymous caller through. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized(CODES.badToken, 'Authentication required.');
  return request.auth;
}

/** The table key of a route: `METHOD /path` below the base path. */
export function routeKey(method: string, url: string, basePath: string): string | undefined {
  if (url !== basePath && !url.startsWith(`${basePath}/`)) return undefined;
  return `${method === 'HEAD' ? 'GET' : method} ${url.slice(basePath.length) || '/'}`;
}

/**
 * Binds every API route to its policy in the shared table and checks it before the handler.
 * Routes under the base path that the table does not name are refused (fail closed) and listed.
 */
export function registerAccessControl(
  app: FastifyInstance,
  options: { basePath: string; authenticate: Authenticate; unprotected: string[]; registered?: RegisteredRoute[] },
): void {
  const { basePath, authenticate } = options;
  app.decorateRequest('auth', null);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (route.config?.access) continue;
      const key = routeKey(method, route.url, basePath) ?? routeKey(method, route.url, '');
      const access = key ? accessOf(key) : undefined;
      if (key && method !== 'HEAD') options.registered?.push({ method, url: route.url, key, access });
      if (access) route.config = { ...route.config, access };
      else if (route.url.startsWith(`${basePath}/docs`)) route.config = { ...route.config, access: 'public' };
      else if (route.url.startsWith(basePath)) options.unprotected.push(`${method} ${route.url}`);
    }
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) {
      // Unmatched requests, static files and the SPA have no policy; an API route without one is refused.
      if (request.routeOptions.url?.startsWith(basePath)) throw forbidden('This route has no access policy.');
      return;
    }
    const token = request.headers['x-token'];
    if (access === 'public') {
      if (typeof token === 'string' && token) request.auth = await authenticate(token).catch(() => null);
      return;
    }
    if (typeof token !== 'string' || !token) throw unauthorized(CODES.badToken, 'Authentication required.');
    request.auth = await authenticate(token);
    if (!allows(access, request.auth.roles)) throw forbidden();
  });
}
