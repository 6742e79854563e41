import type { z } from 'zod';
import { Download, type QueryValue, request } from './request.ts';

export interface CallOptions {
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** false for calls made before a session exists. */
  auth?: boolean;
}

function opts(options: CallOptions) {
  return {
    ...(options.query ? { query: options.query } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.auth === false ? { auth: false } : {}),
  };
}

/** Checks the data of an answer against the shared schema of the call. */
function parse<S extends z.ZodType>(schema: S, data: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw new Error(`Unexpected answer from ${what}: ${result.error.issues[0]?.message ?? 'invalid'}`);
  return result.data;
}

/**
 * Typed calls for the feature folders: each names the shared zod schema of its answer, so the
 * data is checked and typed, e.g. `api.get('/brands/list', brandListSchema)`.
 */
export const api = {
  async get<S extends z.ZodType>(path: string, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    return parse(schema, await request({ method: 'GET', path, ...opts(options) }), `GET ${path}`);
  },
  async post<S extends z.ZodType>(path: string, body: unknown, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    return parse(schema, await request({ method: 'POST', path, body, ...opts(options) }), `POST ${path}`);
  },
  async put<S extends z.ZodType>(path: string, body: unknown, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    return parse(schema, await request({ method: 'PUT', path, body, ...opts(options) }), `PUT ${path}`);
  },
  async delete<S extends z.ZodType>(path: string, schema: S, options: CallOptions = {}): Promise<z.infer<S>> {
    return parse(schema, await request({ method: 'DELETE', path, ...opts(options) }), `DELETE ${path}`);
  },
  /** A file answer (e.g. an export): the bytes and the server's file name. */
  async download(path: string, body: unknown, options: CallOptions = {}): Promise<Download> {
    const answer = await request({ method: 'POST', path, body, responseType: 'blob', ...opts(options) });
    if (answer instanceof Download) return answer;
    throw new Error(`Unexpected answer from POST ${path}: not a file`);
  },
};
