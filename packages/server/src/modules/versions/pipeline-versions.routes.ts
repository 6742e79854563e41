import { envelope } from '@gdb/shared/api/envelope';
import {
  massComputeAnswerSchema,
  massComputeQuerySchema,
  massLockAnswerSchema,
  massLockBodySchema,
  massUpdateBodySchema,
  pipelineLockBodySchema,
  pipelineUpdateAnswerSchema,
  pipelineUpdateBodySchema,
  pipelineUpdateReportSchema,
} from '@gdb/shared/pipelines/pipeline-versions.schemas';
import {
  deleteAnswerSchema,
  lockAnswerSchema,
  versionDocSchema,
  versionIdBodySchema,
  versionIdQuerySchema,
  versionRecordSchema,
} from '@gdb/shared/versions/versions.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { PipelineVersionsService } from './pipeline-versions.service.ts';
import type { VersionsService } from './versions.service.ts';

/** The pipeline version calls (docs/product.md §18.1, §18.6): the engine's, with countries, jobs and the bulk calls. */
export function pipelineVersionRoutes(versions: VersionsService, pipelines: PipelineVersionsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['pipelines'];
    app.get(
      '/pipelines/version',
      { schema: { tags, querystring: versionIdQuerySchema, response: { 200: envelope(z.array(versionRecordSchema)) } } },
      async (req) => ok(await versions.versions('pipeline', req.query.id, requireAuth(req))),
    );
    app.post(
      '/pipelines/version/lock',
      { schema: { tags, body: pipelineLockBodySchema, response: { 200: envelope(lockAnswerSchema) } } },
      async (req) => ok(await pipelines.lock(requireAuth(req), req.body.id, req.body.force ?? false, req.body.country ?? false)),
    );
    app.post(
      '/pipelines/version/new',
      { schema: { tags, body: versionIdBodySchema, response: { 200: envelope(versionDocSchema) } } },
      async (req) => ok(await versions.newVersion('pipeline', requireAuth(req), req.body.id)),
    );
    app.post(
      '/pipelines/version/delete',
      { schema: { tags, body: versionIdBodySchema, response: { 200: envelope(deleteAnswerSchema) } } },
      async (req) => ok(await versions.remove('pipeline', requireAuth(req), req.body.id)),
    );
    app.get(
      '/pipelines/version/compute',
      { schema: { tags, querystring: versionIdQuerySchema, response: { 200: envelope(pipelineUpdateReportSchema) } } },
      async (req) => ok(await pipelines.compute(req.query.id, requireAuth(req))),
    );
    app.post(
      '/pipelines/version/update',
      { schema: { tags, body: pipelineUpdateBodySchema, response: { 200: envelope(pipelineUpdateAnswerSchema) } } },
      async (req) => ok(await pipelines.update(requireAuth(req), req.body.update_data)),
    );
    app.get(
      '/pipelines/version/mass-compute',
      { schema: { tags, querystring: massComputeQuerySchema, response: { 200: envelope(massComputeAnswerSchema) } } },
      async (req) => ok(await pipelines.massCompute(req.query.kind, requireAuth(req))),
    );
    app.post(
      '/pipelines/version/mass-lock',
      { schema: { tags, body: massLockBodySchema, response: { 200: envelope(massLockAnswerSchema) } } },
      async (req) => ok(await pipelines.massLock(requireAuth(req), req.body.ids, req.body.force ?? false)),
    );
    app.post(
      '/pipelines/version/mass-update',
      { schema: { tags, body: massUpdateBodySchema, response: { 200: envelope(pipelineUpdateAnswerSchema) } } },
      async (req) => ok(await pipelines.massUpdate(requireAuth(req), req.body)),
    );
  };
}
