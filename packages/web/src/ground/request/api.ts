import type { z } from 'zod';
import { ApiError, Download, type QueryValue, request } from './request.ts';

export interface CallOptions {
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** false for calls made before a session exists. */
  auth?: boolean;
  /** The text the call throws when it returns nothing, or fails without a message of its own (docs/product.md §5.3). */
  nothing?: string;
}

function opts(options: CallOptions) {
  return {
    ...(options.query ? { query: options.query } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.auth === false ? { auth: false } : {}),
  };
}

/** Checks the data of an answer against the shared schema of the call. */
function parse<S extends z.ZodType>(schema: S, data: unknown, what: string, nothing?: string): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  if (nothing && (data === null || data === undefined)) throw new Error(nothing);
  throw new Error(`Unexpected answer from ${what}: ${result.error.issues[0]?.message ?? 'invalid'}`);
}

/** Makes the call; a failure the server gave no words for reads as the call's own text, when it has one. */
async function call(options: CallOptions, run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    if (options.nothing && error instanceof ApiError && !error.shown && error.wordless) throw new Error(options.nothing);
    throw error;
  }
}

/**
 * Typed calls for the feature folders: each names the shared zod schema of its answer, so the
 * data is checked and typed, e.g. `api.get('/brands/list', brandListSchema)`.
 */
export const api = {
  async get<S extends z.ZodType>(path: string, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    const data = await call(options, () => request({ method: 'GET', path, ...opts(options) }));
    return parse(schema, data, `GET ${path}`, options.nothing);
  },
  async post<S extends z.ZodType>(path: string, body: unknown, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    const data = await call(options, () => request({ method: 'POST', path, body, ...opts(options) }));
    return parse(schema, data, `POST ${path}`, options.nothing);
  },
  async put<S extends z.ZodType>(path: string, body: unknown, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    const data = await call(options, () => request({ method: 'PUT', path, body, ...opts(options) }));
    return parse(schema, data, `PUT ${path}`, options.nothing);
  },
  async delete<S extends z.ZodType>(path: string, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    const data = await call(options, () => request({ method: 'DELETE', path, ...opts(options) }));
    return parse(schema, data, `DELETE ${path}`, options.nothing);
  },
  /** A file answer (e.g. an export): the bytes and the server's file name. */
  async download(path: string, body: unknown, options: CallOptions = {}): Promise<Download> {
    const answer = await request({ method: 'POST', path, body, responseType: 'blob', ...opts(options) });
    if (answer instanceof Download) return answer;
    throw new Error(`Unexpected answer from POST ${path}: not a file`);
  },
};
