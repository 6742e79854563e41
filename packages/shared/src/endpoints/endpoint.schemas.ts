import { z } from 'zod';

/** Where an endpoint listens below the runtime base URL: letters, digits, - and _, parts split by / (rt-endpoint-info). */
export const ENDPOINT_PATH = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

export const endpointPathSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(ENDPOINT_PATH, 'Use letters, digits, - and _ in parts split by /')
  .describe("The endpoint's path below the runtime base URL, e.g. dealers/prices.");

/** POST /pipelines/publish-endpoint: the pipeline, and the rt-endpoint-info form's values (kept from the last publish when left out). */
export const publishEndpointBodySchema = z.object({
  id: z.string().min(1).max(64).describe('Id of the pipeline version to publish.'),
  name: z.string().min(1).max(200).optional().describe('Name of the endpoint; by default the pipeline name.'),
  path: endpointPathSchema.optional(),
  description: z.string().max(2000).optional().describe('What the endpoint is for.'),
  callsPerMinute: z.number().int().min(1).max(6000).optional().describe('Calls one key may make a minute (default 600).'),
});
export type PublishEndpointBody = z.infer<typeof publishEndpointBodySchema>;

/** DELETE /pipelines/deployed-endpoint: the endpoint (or the pipeline it publishes) to un-publish. */
export const unpublishEndpointBodySchema = z.object({
  id: z.string().min(1).max(64).describe('Id of the endpoint, or of the pipeline version it publishes.'),
});

/** An endpoint as the Endpoints screen lists it (docs/product.md §18.7). */
export const endpointViewSchema = z.object({
  _id: z.string().describe('Endpoint id.'),
  path: z.string().describe('Its path below the runtime base URL.'),
  name: z.string().describe('Its name.'),
  description: z.string().describe('What it is for.'),
  callsPerMinute: z.number().int().describe('Calls one key may make a minute.'),
  pipelineId: z.string().describe('The pipeline version it runs.'),
  pipelineName: z.string().nullable().describe("null when the pipeline is gone ('Err: NO PIPELINE')."),
  pipelineVersion: z.number().int().nullable().describe("The pipeline's version; null when it is gone."),
  pipelineVLocked: z.boolean().nullable().describe('Whether that version is locked; null when it is gone.'),
  componentId: z.string().nullable().describe('The component the pipeline runs; null when none or gone.'),
  componentName: z.string().nullable().describe("That component's name; null when none or gone."),
  componentVersion: z.number().int().nullable().describe("That component's version; null when none or gone."),
  dataSubKind: z.string().nullable().describe('The endpoint data source the calls fill.'),
  contentType: z.string().nullable().describe('What callers send: json, csv, excel or xml.'),
  route: z.string().describe('The exposed route: the runtime base URL followed by the path.'),
  isValid: z.boolean().describe('False when the pipeline is gone or no longer has an endpoint data source.'),
  createDate: z.string().describe('When it was first published (ISO date-time).'),
  createUsername: z.string().describe('Who first published it.'),
  updateDate: z.string().describe('When it was last published (ISO date-time).'),
  updateUsername: z.string().describe('Who last published it (the calls act for them).'),
});
export type EndpointView = z.infer<typeof endpointViewSchema>;

/** The answer of a publish: the endpoint and its key, shown this once. */
export const publishedEndpointSchema = endpointViewSchema.extend({
  apiKey: z.string().describe('The key callers send in X-Api-Key; shown only now, replaced by the next publish.'),
});

export const runtimeApiUrlSchema = z.object({
  url: z.string().describe('The runtime base URL endpoints are served below, e.g. https://host/gdb-runtime/v1.'),
});

/** The longest `?wait=` a call of an endpoint may ask, in seconds. */
export const MAX_WAIT_SECONDS = 60;

export const ENDPOINT_MESSAGES = {
  published: 'Pipeline is successfully published',
  unpublished: 'Endpoint un-published',
  notEndpoint: 'This pipeline has no endpoint data source.',
  pathTaken: 'Another pipeline is published at this path.',
  notFound: 'Endpoint not found.',
  badKey: 'A valid X-Api-Key is required.',
  publisherGone: 'The publisher of this endpoint may no longer run its pipeline: it must be published again.',
} as const;
