import { envelope } from '@gdb/shared/api/envelope';
import {
  deleteAnswerSchema,
  lockAnswerSchema,
  updateAnswerSchema,
  updateBodySchema,
  updateReportSchema,
  type VersionKind,
  versionDocSchema,
  versionIdBodySchema,
  versionIdQuerySchema,
  versionLockBodySchema,
  versionRecordSchema,
} from '@gdb/shared/versions/versions.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { VersionsService } from './versions.service.ts';

/** The version calls of one kind below its path (`/schemas/version`, …): docs/product.md §18.1. */
export function versionRoutes(versions: VersionsService, kind: VersionKind, path: `/${string}`) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = [path.slice(1)];
    app.get(
      `${path}/version`,
      { schema: { tags, querystring: versionIdQuerySchema, response: { 200: envelope(z.array(versionRecordSchema)) } } },
      async (req) => ok(await versions.versions(kind, req.query.id, requireAuth(req))),
    );
    app.post(
      `${path}/version/lock`,
      { schema: { tags, body: versionLockBodySchema, response: { 200: envelope(lockAnswerSchema) } } },
      async (req) => ok(await versions.lock(kind, requireAuth(req), req.body.id, req.body.force ?? false)),
    );
    app.post(
      `${path}/version/new`,
      { schema: { tags, body: versionIdBodySchema, response: { 200: envelope(versionDocSchema) } } },
      async (req) => ok(await versions.newVersion(kind, requireAuth(req), req.body.id)),
    );
    app.post(
      `${path}/version/delete`,
      { schema: { tags, body: versionIdBodySchema, response: { 200: envelope(deleteAnswerSchema) } } },
      async (req) => ok(await versions.remove(kind, requireAuth(req), req.body.id)),
    );
    app.get(
      `${path}/version/compute`,
      { schema: { tags, querystring: versionIdQuerySchema, response: { 200: envelope(updateReportSchema) } } },
      async (req) => ok(await versions.compute(kind, req.query.id, requireAuth(req))),
    );
    app.post(
      `${path}/version/update`,
      { schema: { tags, body: updateBodySchema, response: { 200: envelope(updateAnswerSchema) } } },
      async (req) => ok(await versions.update(kind, requireAuth(req), req.body.update_data)),
    );
  };
}
