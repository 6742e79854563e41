import { envelope } from '@gdb/shared/api/envelope';
import {
  componentListEntrySchema,
  componentSaveBodySchema,
  componentSchema,
  idParamsSchema,
  idQuerySchema,
  idsQuerySchema,
} from '@gdb/shared/components/components.schemas';
import { componentHierarchySchema, usageSchema } from '@gdb/shared/components/hierarchy.schemas';
import { executeBodySchema, runResultSchema, stopResultSchema } from '@gdb/shared/components/run.schemas';
import { sdkListEntrySchema } from '@gdb/shared/sdk/sdk.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import { longAnswer } from '../../platform/http/long-answer.ts';
import type { RuntimeService } from '../../runtime/runtime.service.ts';
import type { SdkService } from '../sdk/sdk.service.ts';
import type { ComponentsService } from './components.service.ts';

export function componentsRoutes(components: ComponentsService, runtime: RuntimeService, sdk: SdkService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['components'];
    app.get(
      '/components/find',
      { schema: { tags, querystring: idQuerySchema, response: { 200: envelope(componentSchema) } } },
      async (req) => ok(await components.find(req.query.id, requireAuth(req))),
    );
    app.get(
      '/components/list',
      { schema: { tags, response: { 200: envelope(z.array(componentListEntrySchema)) } } },
      async (req) => ok(await components.list(requireAuth(req))),
    );
    app.get(
      '/components',
      { schema: { tags, querystring: idsQuerySchema, response: { 200: envelope(z.array(componentSchema)) } } },
      async (req) => ok(await components.many(req.query.ids, requireAuth(req))),
    );
    app.post(
      '/components',
      { schema: { tags, body: componentSaveBodySchema, response: { 200: envelope(componentSchema) } } },
      async (req) => ok(await components.save(requireAuth(req), req.body), 'Component saved'),
    );
    app.delete(
      '/components',
      {
        schema: {
          tags,
          querystring: idQuerySchema,
          response: { 200: envelope(z.object({ _id: z.string().describe('Id of the deleted version.') })) },
        },
      },
      async (req) => ok(await components.remove(requireAuth(req), req.query.id)),
    );
    app.get(
      '/components/documentation',
      { schema: { tags, response: { 200: envelope(z.array(sdkListEntrySchema)) } } },
      async (req) => ok(await sdk.list(requireAuth(req))),
    );
    app.get(
      '/components/:id/dependencies',
      { schema: { tags, params: idParamsSchema, response: { 200: envelope(componentHierarchySchema) } } },
      async (req) => ok(await components.hierarchy(req.params.id, requireAuth(req))),
    );
    app.get(
      '/components/usages',
      { schema: { tags, querystring: idQuerySchema, response: { 200: envelope(z.array(usageSchema)) } } },
      async (req) => ok(await components.usages(req.query.id, requireAuth(req))),
    );
    app.get(
      '/components/:id/js-code',
      { schema: { tags, params: idParamsSchema, response: { 200: envelope(z.string()) } } },
      async (req) => ok((await runtime.program(req.params.id)).code),
    );
    app.post(
      '/components/:id/generate',
      { schema: { tags, params: idParamsSchema, response: { 200: envelope(z.string()) } } },
      async (req) => ok((await runtime.program(req.params.id, { fresh: true })).code),
    );
    app.post(
      '/components/:id/execute',
      { schema: { tags, params: idParamsSchema, body: executeBodySchema, response: { 200: envelope(runResultSchema) } } },
      async (req, reply) => {
        const auth = requireAuth(req);
        // A component the caller's badges do not open, or one naming such a document at any depth, is refused before it runs.
        // The run builds its program from the documents checked, not from a second read.
        const graph = await runtime.graph(req.params.id);
        await components.assertRunnable(auth, graph);
        const { payload = {}, rt_context = {}, runId } = req.body;
        // Its log lines go out on the live channel as they are written, when the editor named the run;
        // the run's id is taken once the run has one of the caller's places (a refused run takes none).
        const lines = runId ? () => components.testLogs(runId, auth, { componentId: req.params.id }) : undefined;
        const gone = longAnswer(req, reply);
        return ok(
          await runtime.testComponent(auth.userId, req.params.id, payload, rt_context, {
            gone,
            graph,
            ...(lines ? { lines } : {}),
          }),
        );
      },
    );
    app.post(
      '/components/:id/stop',
      { schema: { tags, params: idParamsSchema, response: { 200: envelope(stopResultSchema) } } },
      async (req) => ok({ stopped: runtime.stopTest(requireAuth(req).userId, req.params.id) }),
    );
  };
}
