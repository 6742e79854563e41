import multipart from '@fastify/multipart';
import { CODES, envelope } from '@gdb/shared/api/envelope';
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
import { attachmentHeader } from '../../platform/http/content-disposition.ts';
import { ok } from '../../platform/http/envelope.ts';
import { AppError, invalid } from '../../platform/http/errors.ts';
import type { UploadBudget } from './upload-budget.ts';
import type { IncomingFile, UploadsService } from './uploads.service.ts';

const MAX_FILES = 20;

/** Reads a multipart upload: the `pipelineId` field and one file part per data source, each up to 20 MiB. */
async function readParts(req: FastifyRequest): Promise<{ pipelineId: string; files: IncomingFile[] }> {
  let pipelineId = '';
  const files: IncomingFile[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'pipelineId' && typeof part.value === 'string') pipelineId = part.value;
        continue;
      }
      const bytes = await part.toBuffer();
      files.push({ dataSubKind: part.fieldname, filename: part.filename, mimetype: part.mimetype, bytes });
    }
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(413, CODES.tooLarge, 'Files must be less than 20 MiB');
    }
    if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('FST_')) {
      throw invalid(`The upload cannot be read: ${error.message}`);
    }
    throw error;
  }
  if (!z.string().uuid().safeParse(pipelineId).success)
    throw invalid('pipelineId: must be an id', [{ path: 'pipelineId', message: 'must be an id' }]);
  return { pipelineId, files };
}

/** What an upload request holds in memory: its declared length, else all it may send. */
function declaredLength(req: FastifyRequest): number {
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length >= 0 ? length : MAX_FILES * MAX_FILE_BYTES;
}

export function uploadsRoutes(uploads: UploadsService, budget: UploadBudget) {
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
        const release = budget.reserve(declaredLength(req));
        try {
          const { pipelineId, files } = await readParts(req);
          return ok(await uploads.receive(requireAuth(req), pipelineId, files));
        } finally {
          release();
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
    app.post('/uploads/export', { schema: { tags, body: exportBodySchema } }, async (req, reply) => {
      const file = await uploads.exportFiles(requireAuth(req), req.body.uploadIds);
      return reply
        .header('content-type', file.filename.endsWith('.zip') ? 'application/zip' : 'application/octet-stream')
        .header('content-disposition', attachmentHeader(file.filename))
        .send(Buffer.from(file.bytes));
    });
  };
}
