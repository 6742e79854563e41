import { envelope } from '@gdb/shared/api/envelope';
import {
  LISTENER_MESSAGES,
  listenerViewSchema,
  publishListenerBodySchema,
  unpublishListenerBodySchema,
} from '@gdb/shared/listeners/listener.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { ListenersService } from './listeners.service.ts';

const idParams = z.object({
  id: z.string().min(1).max(64).describe('Id of the listener, or of the pipeline version it publishes.'),
});

/** The calls of the Listeners screen and the wizard's publish panel (docs/product.md §18.7). */
export function listenersRoutes(listeners: ListenersService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['listeners'];
    app.post(
      '/pipelines/publish-listener',
      { schema: { tags, body: publishListenerBodySchema, response: { 200: envelope(listenerViewSchema) } } },
      async (req) => ok(await listeners.publish(requireAuth(req), req.body), LISTENER_MESSAGES.published),
    );
    app.get(
      '/pipelines/deployed-listener',
      { schema: { tags, response: { 200: envelope(z.array(listenerViewSchema)) } } },
      async (req) => ok(await listeners.list(requireAuth(req))),
    );
    app.get(
      '/pipelines/deployed-listener/:id',
      { schema: { tags, params: idParams, response: { 200: envelope(listenerViewSchema) } } },
      async (req) => ok(await listeners.byId(requireAuth(req), req.params.id)),
    );
    app.delete(
      '/pipelines/deployed-listener',
      {
        schema: {
          tags,
          body: unpublishListenerBodySchema,
          response: { 200: envelope(z.object({ _id: z.string().describe('Id of the listener un-published.') })) },
        },
      },
      async (req) => ok(await listeners.remove(requireAuth(req), req.body.id), LISTENER_MESSAGES.unpublished),
    );
  };
}
