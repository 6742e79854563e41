import { CODES, type Issue, LOGOUT_CODES } from '@gdb/shared/api/envelope';
import { refreshAnswerSchema } from '@gdb/shared/auth/session.schemas';
import { isRecord } from '@gdb/shared/values/is-record';
import { requestUi } from './request-ui.ts';
import { clearTokens, getRefreshToken, getToken, isExpired, saveTokens } from './token-store.ts';

/** The API prefix; a build may set VITE_BASE_PATH. */
const BASE_PATH: string = import.meta.env.VITE_BASE_PATH ?? '/gdb-importer/v1';
/** Every call gives up after 40 minutes (docs/product.md §5.2). */
export const REQUEST_TIMEOUT_MS = 2_400_000;
/** How long a network error stays on screen. */
const NETWORK_ERROR_SECONDS = 5;
const LOST_CONNECTION = 'Lost connection to server';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path below the base path, e.g. `/users/info`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Sent as JSON, or as is for FormData. */
  body?: unknown;
  /** false for the calls made before a session exists (sign-in, refresh). */
  auth?: boolean;
  /** 'blob' answers the raw bytes of a non-JSON response. */
  responseType?: 'json' | 'blob';
  signal?: AbortSignal;
}

export type ApiErrorKind = 'envelope' | 'lost' | 'network' | 'timeout' | 'http';

/** A failed call: the envelope's code and message, or what went wrong on the way. */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: number | undefined;
  readonly status: number | undefined;
  readonly issues: Issue[];
  /** The server answered an error envelope without a message of its own. */
  readonly wordless: boolean;

  constructor(
    kind: ApiErrorKind,
    message: string,
    extra: { code?: number; status?: number; issues?: Issue[]; wordless?: boolean } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.code = extra.code;
    this.status = extra.status;
    this.issues = extra.issues ?? [];
    this.wordless = extra.wordless ?? false;
  }

  /** True when the request layer already showed this failure (dialog or network message). */
  get shown(): boolean {
    return this.kind !== 'envelope' || (this.code !== undefined && LOGOUT_CODES.includes(this.code));
  }
}

/** The body of a downloaded file and the name the server gave it. */
export class Download {
  constructor(
    readonly blob: Blob,
    readonly filename: string | undefined,
  ) {}
}

let logoutDialogOpen = false;

async function confirmLogout(): Promise<void> {
  if (logoutDialogOpen) return;
  logoutDialogOpen = true;
  try {
    const relogin = await requestUi().confirmLogout();
    if (relogin) {
      clearTokens();
      requestUi().reload();
    }
  } finally {
    logoutDialogOpen = false;
  }
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const qs = params.toString();
  return `${BASE_PATH}${path}${qs ? `?${qs}` : ''}`;
}

function issuesOf(data: unknown): Issue[] {
  if (!isRecord(data) || !Array.isArray(data.issues)) return [];
  return data.issues.filter((i): i is Issue => isRecord(i) && typeof i.path === 'string' && typeof i.message === 'string');
}

function filenameOf(res: Response): string | undefined {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (star) return decodeURIComponent(star);
  return /filename="?([^";]+)"?/i.exec(header)?.[1];
}

/** Reads an answer: the envelope's data on 20000, the raw body when it is not JSON. */
async function readAnswer(res: Response, responseType: RequestOptions['responseType']): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  const json = /[/+]json\b/i.test(type);
  if (responseType === 'blob' && !json) {
    const blob = await res.blob();
    if (blob.size === 0) throw new ApiError('lost', LOST_CONNECTION, { status: res.status });
    if (!res.ok) throw httpError(res);
    return new Download(blob, filenameOf(res));
  }
  const text = await res.text();
  if (!text) throw new ApiError('lost', LOST_CONNECTION, { status: res.status });
  if (!json) {
    if (!res.ok) throw httpError(res);
    return text;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    if (!res.ok) throw httpError(res);
    return text;
  }
  if (!isRecord(body) || typeof body.code !== 'number') return body;
  if (body.code === CODES.ok) return body.data;
  const wordless = typeof body.message !== 'string' || body.message.trim() === '';
  const message = wordless ? 'Error' : String(body.message);
  const error = new ApiError('envelope', message, { code: body.code, status: res.status, issues: issuesOf(body.data), wordless });
  if (LOGOUT_CODES.includes(body.code)) void confirmLogout();
  throw error;
}

function httpError(res: Response): ApiError {
  const error = new ApiError('http', `Request failed with status code ${res.status}`, { status: res.status });
  requestUi().error(error.message, NETWORK_ERROR_SECONDS);
  return error;
}

/** Sends one HTTP request with the time-out; network failures are shown for 5 s and rejected. */
async function send(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } catch (cause) {
    if (signal?.aborted && !timedOut) throw cause;
    const error = timedOut
      ? new ApiError('timeout', `timeout of ${REQUEST_TIMEOUT_MS}ms exceeded`)
      : new ApiError('network', 'Network Error');
    requestUi().error(error.message, NETWORK_ERROR_SECONDS);
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

async function post(path: string, body: unknown): Promise<unknown> {
  const res = await send(
    buildUrl(path, undefined),
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    undefined,
  );
  return readAnswer(res, 'json');
}

let refreshing: Promise<string | undefined> | null = null;

async function refreshOnce(): Promise<string | undefined> {
  // Another tab may have refreshed, or signed out, while this one waited for the lock.
  const current = getToken();
  if (current && !isExpired(current)) return current.value;
  const refreshToken = getRefreshToken();
  if (!refreshToken) return undefined;
  const answer = refreshAnswerSchema.parse(await post('/users/refresh-token', { refreshToken }));
  saveTokens(answer.token, answer.refreshToken);
  return answer.token.value;
}

/** One refresh at a time across the tabs of this browser: refresh tokens are single-use. */
function refreshToken(): Promise<string | undefined> {
  if (!refreshing) {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    const run = locks ? locks.request('gdb-token-refresh', refreshOnce).then((token) => token) : refreshOnce();
    const shared = run.finally(() => {
      refreshing = null;
    });
    refreshing = shared;
    return shared;
  }
  return refreshing;
}

/** The token to send: the stored one while valid, else a refreshed one when a refresh token exists. */
export async function currentToken(): Promise<string | undefined> {
  const token = getToken();
  if (token && !isExpired(token)) return token.value;
  if (getRefreshToken()) return refreshToken();
  return undefined;
}

/**
 * Calls the API (docs/product.md §5.2): refreshes a missing or expired token first, sends X-Token,
 * answers the envelope's data on 20000, offers to log in again on 50008/50012/50014, rejects
 * with the message on any other code, with 'Lost connection to server' on an empty answer, and
 * answers the raw body when it is not JSON.
 */
export async function request(options: RequestOptions): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.auth !== false) {
    const token = await currentToken();
    if (token) headers['x-token'] = token;
  }
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await send(
    buildUrl(options.path, options.query),
    { method: options.method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) },
    options.signal,
  );
  return readAnswer(res, options.responseType ?? 'json');
}
