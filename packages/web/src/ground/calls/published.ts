import { endpointViewSchema, publishedEndpointSchema, runtimeApiUrlSchema } from '@gdb/shared/endpoints/endpoint.schemas';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../request/api.ts';
import { request } from '../request/request.ts';

/** How a pipeline is published: as an endpoint (called over HTTP) or a listener (fed by a broker). */
export type PublishKind = 'endpoint' | 'listener';

/** One server instance's consumer of a listener (docs/product.md §18.7). */
const listenerHostSchema = z.object({
  hostname: z.string(),
  state: z.string(),
  last_error: z.string().nullish(),
});

/** The rt-listener-info form's values a listener answers (the password as a placeholder, never itself). */
const listenerSettingsSchema = z.object({
  kind: z.string().optional(),
  url: z.string().optional(),
  queue: z.string().optional(),
  jetStream: z.boolean().optional(),
  batchSize: z.number().int().optional(),
  batchWaitMs: z.number().int().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
});

/** A listener as the Listeners screen lists it: its pipeline, its settings and the state of each server's consumer. */
const listenerViewSchema = listenerSettingsSchema.extend({
  _id: z.string(),
  pipelineId: z.string(),
  pipelineName: z.string().nullish(),
  pipelineVersion: z.number().int().nullish(),
  pipelineVLocked: z.boolean().nullish(),
  state: z.array(listenerHostSchema),
  isValid: z.boolean(),
  createDate: z.string(),
  createUsername: z.string(),
});
export type ListenerView = z.infer<typeof listenerViewSchema>;

/** The answer of a listener publish: the listener (no key: a broker feeds it). */
const publishedListenerSchema = z.object({ _id: z.string() });

const openApiSchema = z.record(z.string(), z.unknown());
const unpublishedSchema = z.object({ _id: z.string() });

const PATHS = { endpoint: '/pipelines/deployed-endpoint', listener: '/pipelines/deployed-listener' } as const;

export const publishedKeys = {
  all: ['published'] as const,
  list: (kind: PublishKind) => ['published', kind] as const,
  openApi: (id: string) => ['published', 'endpoint', 'openapi', id] as const,
  runtimeUrl: ['published', 'runtime-url'] as const,
};

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});

/** GET /pipelines/deployed-endpoint: the endpoints whose pipeline the caller may read, and those whose pipeline is gone. */
const listEndpoints = (signal?: AbortSignal) => api.get(PATHS.endpoint, z.array(endpointViewSchema), withSignal(signal));

/** GET /pipelines/deployed-listener: the listeners, each with its per-server state. */
const listListeners = (signal?: AbortSignal) => api.get(PATHS.listener, z.array(listenerViewSchema), withSignal(signal));

/** The published endpoints, one cached answer for the Endpoints screen and the publish panels. */
export function useEndpoints() {
  return useQuery({ queryKey: publishedKeys.list('endpoint'), queryFn: ({ signal }) => listEndpoints(signal), retry: false });
}

/** The published listeners, one cached answer for the Listeners screen and the publish panels. */
export function useListeners() {
  return useQuery({ queryKey: publishedKeys.list('listener'), queryFn: ({ signal }) => listListeners(signal), retry: false });
}

/** POST /pipelines/publish-endpoint: publishes (or re-publishes) a pipeline; the answer holds its key, shown this once. */
export const publishEndpoint = (body: { id: string } & Record<string, unknown>) =>
  api.post('/pipelines/publish-endpoint', body, publishedEndpointSchema);

/** POST /pipelines/publish-listener: publishes (or re-publishes) a pipeline whose data source is a listener. */
export const publishListener = (body: { id: string } & Record<string, unknown>) =>
  api.post('/pipelines/publish-listener', body, publishedListenerSchema);

/** DELETE /pipelines/deployed-endpoint or deployed-listener {id}: un-publishes one. */
export async function unpublish(kind: PublishKind, id: string) {
  return unpublishedSchema.parse(await request({ method: 'DELETE', path: PATHS[kind], body: { id } }));
}

/** GET /pipelines/deployed-endpoint/{id}/openapi: the endpoint's OpenAPI 3.1 document, as its callers read it. */
export const endpointOpenApi = (id: string, signal?: AbortSignal) =>
  api.get(`${PATHS.endpoint}/${encodeURIComponent(id)}/openapi`, openApiSchema, withSignal(signal));

/** GET /pipelines/get-runtime-api-url: the base URL endpoints are served below. */
export const runtimeApiUrl = (signal?: AbortSignal) =>
  api.get('/pipelines/get-runtime-api-url', runtimeApiUrlSchema, withSignal(signal));
