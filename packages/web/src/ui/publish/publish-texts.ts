import { ENDPOINT_MESSAGES } from '@gdb/shared/endpoints/endpoint.schemas';

/** The words of the Endpoints and Listeners screens and of the wizard's publish panels (docs/product.md §18.7). */
export const PUBLISH_TEXTS = {
  published: ENDPOINT_MESSAGES.published,
  noPipeline: 'Err: NO PIPELINE',
  unpublishQuestion: (names: readonly string[]) => `Do you want to un-publish pipeline [${names.join(', ')}]`,
  republishQuestion: (names: readonly string[]) => `Do you want to re-publish endpoints/pipeline [${names.join(', ')}]`,
  publish: 'Publish',
  republish: 'Re-Publish',
  refresh: 'Refresh',
  viewOpenApi: 'View OpenAPI',
  openApiTitle: 'OpenAPI',
  openApiLabel: 'OpenAPI document',
  copy: 'Copy',
  copied: 'Copied',
  close: 'Close',
  keyTitle: 'The key of this endpoint',
  keyOnce: 'Copy it now: it will not be shown again. Callers send it in the X-Api-Key header; a re-publish replaces it.',
  keysTitle: 'The new keys of the endpoints',
  notPublished: 'Not published yet.',
  publishedAt: 'Published at',
  servedBelow: 'Served below',
  publishersOnly: 'This data source is fed from outside once the pipeline is published, which managers do.',
} as const;

/** The model each kind's publish form is drawn from (docs/product.md §18.7). */
export const PUBLISH_FORM_MODEL = { endpoint: 'rt-endpoint-info', listener: 'rt-listener-info' } as const;
