import multipart from '@fastify/multipart';
import { envelope } from '@gdb/shared/api/envelope';
import {
  columnMappingBodySchema,
  columnMappingsQuerySchema,
  columnMappingViewSchema,
  fileHeadSchema,
  sourceMappingsSchema,
} from '@gdb/shared/uploads/column-mapping.schemas';
import {
  disableBodySchema,
  exportBodySchema,
  lastAllQuerySchema,
  lastListSchema,
  lastQuerySchema,
  MAX_FILE_BYTES,
  outputsQuerySchema,
  realtimeBodySchema,
  statusQuerySchema,
  uploadViewSchema,
} from '@gdb/shared/uploads/upload.schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import { attachmentHeader } from '../../platform/http/content-disposition.ts';
import { ok } from '../../platform/http/envelope.ts';
import { invalid } from '../../platform/http/errors.ts';
import { takeFileHead } from './file-head-intake.ts';
import type { UploadBudget } from './upload-budget.ts';
import { takeUpload } from './upload-intake.ts';
import type { UploadsService } from './uploads.service.ts';

const MAX_FILES = 20;

/** The length an upload request declares, 0 when it declares none. */
function declaredLength(req: FastifyRequest): number {
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length >= 0 ? length : 0;
}

export function uploadsRoutes(uploads: UploadsService, budget: UploadBudget, files: FileStore) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(multipart, {
      limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES, fields: 10, parts: MAX_FILES + 10, fieldSize: 1024 },
    });
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['uploads'];
    app.post(
      '/uploads',
      {
        bodyLimit: MAX_FILES * MAX_FILE_BYTES,
        schema: { tags, consumes: ['multipart/form-data'], response: { 200: envelope(z.array(z.string())) } },
      },
      async (req) => {
        if (!req.isMultipart()) throw invalid('Send the files as multipart/form-data.');
        const auth = requireAuth(req);
        const share = budget.admit(declaredLength(req));
        try {
          return ok(
            await takeUpload(req, files, share, (pipelineId, stored, sentFrom) =>
              uploads.receive(auth, pipelineId, stored, sentFrom),
            ),
          );
        } finally {
          share.release();
        }
      },
    );
    app.get(
      '/uploads/status',
      { schema: { tags, querystring: statusQuerySchema, response: { 200: envelope(z.array(uploadViewSchema)) } } },
      async (req) => ok(await uploads.statuses(requireAuth(req), req.query.ids)),
    );
    app.get(
      '/uploads/last',
      { schema: { tags, querystring: lastQuerySchema, response: { 200: envelope(z.array(uploadViewSchema)) } } },
      async (req) => ok(await uploads.last(requireAuth(req), req.query.pipelineId, req.query.dataSubKind)),
    );
    app.get(
      '/uploads/last-all',
      { schema: { tags, querystring: lastAllQuerySchema, response: { 200: envelope(z.array(lastListSchema)) } } },
      async (req) => ok(await uploads.lastAll(requireAuth(req), req.query.pipelineId)),
    );
    app.get(
      '/uploads/outputs',
      { schema: { tags, querystring: outputsQuerySchema, response: { 200: envelope(z.array(uploadViewSchema)) } } },
      async (req) => ok(await uploads.outputs(requireAuth(req), req.query.pipelineId)),
    );
    app.post(
      '/uploads/disable',
      { schema: { tags, body: disableBodySchema, response: { 200: envelope(uploadViewSchema) } } },
      async (req) => ok(await uploads.setEnabled(requireAuth(req), req.body.id, req.body.enabled)),
    );
    app.post(
      '/uploads/realtime',
      { schema: { tags, body: realtimeBodySchema, response: { 200: envelope(z.array(z.string())) } } },
      async (req) => ok(await uploads.fetchRealtime(requireAuth(req), req.body.pipelineId, req.body.dataSubKinds)),
    );
    app.get(
      '/uploads/column-mappings',
      { schema: { tags, querystring: columnMappingsQuerySchema, response: { 200: envelope(sourceMappingsSchema) } } },
      async (req) => ok(await uploads.mappings(requireAuth(req), req.query.pipelineId, req.query.dataSubKind)),
    );
    app.post(
      '/uploads/column-mappings',
      { schema: { tags, body: columnMappingBodySchema, response: { 200: envelope(columnMappingViewSchema) } } },
      async (req) => ok(await uploads.saveMapping(requireAuth(req), req.body)),
    );
    app.post(
      '/uploads/file-head',
      {
        bodyLimit: MAX_FILE_BYTES + 64 * 1024,
        schema: { tags, consumes: ['multipart/form-data'], response: { 200: envelope(fileHeadSchema) } },
      },
      async (req) => {
        if (!req.isMultipart()) throw invalid('Send the file as multipart/form-data.');
        const auth = requireAuth(req);
        const share = budget.admit(declaredLength(req));
        try {
          return ok(
            await takeFileHead(req, share, (fields, bytes) =>
              uploads.fileHead(auth, fields.pipelineId, fields.dataSubKind, bytes),
            ),
          );
        } finally {
          share.release();
        }
      },
    );
    app.post('/uploads/export', { schema: { tags, body: exportBodySchema } }, async (req, reply) => {
      const file = await uploads.exportFiles(requireAuth(req), req.body.uploadIds);
      return reply
        .header('content-type', file.filename.endsWith('.zip') ? 'application/zip' : 'application/octet-stream')
        .header('content-disposition', attachmentHeader(file.filename))
        .send(Buffer.from(file.bytes));
    });
  };
}
