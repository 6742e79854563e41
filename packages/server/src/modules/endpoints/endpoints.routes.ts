import { envelope } from '@gdb/shared/api/envelope';
import {
  ENDPOINT_MESSAGES,
  endpointViewSchema,
  publishEndpointBodySchema,
  publishedEndpointSchema,
  runtimeApiUrlSchema,
  unpublishEndpointBodySchema,
} from '@gdb/shared/endpoints/endpoint.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { EndpointsService } from './endpoints.service.ts';

const openApiDocumentSchema = z
  .record(z.string(), z.unknown())
  .describe('The OpenAPI 3.1 document of the endpoint, built from its data source and data model.');
const idParams = z.object({
  id: z.string().min(1).max(64).describe('Id of the endpoint, or of the pipeline version it publishes.'),
});

/** The calls of the Endpoints screen and the wizard's publish panel (docs/product.md §18.7). */
export function endpointsRoutes(endpoints: EndpointsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['endpoints'];
    app.post(
      '/pipelines/publish-endpoint',
      { schema: { tags, body: publishEndpointBodySchema, response: { 200: envelope(publishedEndpointSchema) } } },
      async (req) => ok(await endpoints.publish(requireAuth(req), req.body), ENDPOINT_MESSAGES.published),
    );
    app.get(
      '/pipelines/get-runtime-api-url',
      { schema: { tags, response: { 200: envelope(runtimeApiUrlSchema) } } },
      async (req) => {
        requireAuth(req);
        return ok({ url: endpoints.runtimeUrl() });
      },
    );
    app.get(
      '/pipelines/deployed-endpoint',
      { schema: { tags, response: { 200: envelope(z.array(endpointViewSchema)) } } },
      async (req) => ok(await endpoints.list(requireAuth(req))),
    );
    app.get(
      '/pipelines/deployed-endpoint/:id',
      { schema: { tags, params: idParams, response: { 200: envelope(endpointViewSchema) } } },
      async (req) => ok(await endpoints.byId(requireAuth(req), req.params.id)),
    );
    app.get(
      '/pipelines/deployed-endpoint/:id/openapi',
      { schema: { tags, params: idParams, response: { 200: envelope(openApiDocumentSchema) } } },
      async (req) => ok(await endpoints.openApi(requireAuth(req), req.params.id)),
    );
    app.delete(
      '/pipelines/deployed-endpoint',
      {
        schema: {
          tags,
          body: unpublishEndpointBodySchema,
          response: { 200: envelope(z.object({ _id: z.string().describe('Id of the endpoint un-published.') })) },
        },
      },
      async (req) => ok(await endpoints.remove(requireAuth(req), req.body.id), ENDPOINT_MESSAGES.unpublished),
    );
  };
}
