import { envelope } from '@gdb/shared/api/envelope';
import { pipelineViewSchema, userPipelinesSchema } from '@gdb/shared/pipelines/pipeline.schemas';
import { PIPELINE_SAVE_MESSAGES, pipelineSaveBodySchema } from '@gdb/shared/pipelines/pipeline-save.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { PipelinesService } from './pipelines.service.ts';

const idQuery = z.object({ id: z.string().min(1).max(64).describe('Pipeline id.') });
const list = envelope(z.array(pipelineViewSchema));
const userPipelines = envelope(userPipelinesSchema);
const deletedSchema = z.object({
  _id: z.string().describe('Id of the pipeline version asked.'),
  deleted: z.array(z.string()).describe('Ids of the versions deleted: its country pipelines (for a master), then itself.'),
});

export function pipelinesRoutes(pipelines: PipelinesService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['pipelines'];
    app.get('/pipelines', { schema: { tags, response: { 200: list } } }, async (req) =>
      ok(await pipelines.all(requireAuth(req))),
    );
    app.get(
      '/pipelines/id',
      { schema: { tags, querystring: idQuery, response: { 200: envelope(pipelineViewSchema) } } },
      async (req) => ok(await pipelines.byId(requireAuth(req), req.query.id)),
    );
    app.get('/pipelines/masters', { schema: { tags, response: { 200: list } } }, async (req) =>
      ok(await pipelines.masters(requireAuth(req))),
    );
    app.get('/pipelines/pipelinesOfMaster', { schema: { tags, querystring: idQuery, response: { 200: list } } }, async (req) =>
      ok(await pipelines.countriesOf(requireAuth(req), req.query.id)),
    );
    app.post(
      '/pipelines',
      { schema: { tags, body: pipelineSaveBodySchema, response: { 200: envelope(pipelineViewSchema) } } },
      async (req) => ok(await pipelines.save(requireAuth(req), req.body), PIPELINE_SAVE_MESSAGES.saved),
    );
    app.delete(
      '/pipelines',
      { schema: { tags, querystring: idQuery, response: { 200: envelope(deletedSchema) } } },
      async (req) => ok(await pipelines.remove(requireAuth(req), req.query.id), 'Pipeline deleted'),
    );
    app.get('/users/pipelines', { schema: { tags, response: { 200: userPipelines } } }, async (req) =>
      ok(await pipelines.forUser(requireAuth(req))),
    );
  };
}
