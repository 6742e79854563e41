// A fake server for the web tests: answers fetch calls by method and path with envelopes.
import { vi } from 'vitest';

export interface Recorded {
  /** The whole address asked (its origin included). */
  href: string;
  method: string;
  path: string;
  search: string;
  headers: Record<string, string>;
  body: unknown;
  /** The request's credentials mode, when the caller set one. */
  credentials: RequestCredentials | undefined;
}

export type Handler = (call: Recorded) => Response | Promise<Response>;

/** A JSON envelope answer. */
export function envelope(code: number, message: string, data: unknown, status = code === 20000 ? 200 : 400): Response {
  return new Response(JSON.stringify({ code, message, data }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

export const ok = (data: unknown) => envelope(20000, 'success', data);

/** A user info answer for these roles. */
export function userInfo(
  roles: string[],
  fields: Partial<{ firstName: string; lastName: string; formCheckUrls: string[] }> = {},
) {
  return {
    user: {
      _id: 'u1',
      firstName: fields.firstName ?? 'Ada',
      lastName: fields.lastName ?? 'Lovelace',
      userName: 'ada.lovelace',
      email: 'ada@example.test',
      avatar: '',
      role: roles.join(','),
      roles: roles.map((name) => ({ name })),
      tags: [],
      unrestrictedUpload: false,
      isNoCode: false,
    },
    mimetypes: { csv: ['text/csv'] },
    formCheckUrls: fields.formCheckUrls ?? [],
  };
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/**
 * Installs a fake fetch: `routes` maps 'METHOD /path' (below the base path) to a handler; any
 * other call answers a 404 envelope. Answers the recorded calls.
 */
export function fakeApi(routes: Record<string, Handler>) {
  const calls: Recorded[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/gdb-importer\/v1/, '');
    const method = init?.method ?? 'GET';
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const call: Recorded = {
      href: url.href,
      method,
      path,
      search: url.search,
      headers: headersOf(init),
      body: text ? JSON.parse(text) : undefined,
      credentials: init?.credentials,
    };
    calls.push(call);
    const handler = routes[`${method} ${path}`];
    return handler ? handler(call) : envelope(40400, `Route ${method} ${path} not found`, null, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    count: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key).length,
  };
}

/** Stores a valid session in localStorage, as a sign-in would. */
export function signIn(expireInMs = 600_000): void {
  localStorage.setItem('gdb-token', 'access-1');
  localStorage.setItem('gdb-token-expire-at', String(Date.now() + expireInMs));
  localStorage.setItem('gdb-refresh-token', 'refresh-1');
}

/** Signs in as a user with these roles and installs a fake API answering their user info and `routes`. */
export function signedInAs(roles: string[], routes: Record<string, Handler> = {}, fields?: Parameters<typeof userInfo>[1]) {
  signIn();
  return fakeApi({ 'GET /users/info': () => ok(userInfo(roles, fields)), ...routes });
}
