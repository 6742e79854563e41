import { CODES, type Issue } from '@gdb/shared/api/envelope';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from './errors.ts';
import { isReservedPath } from './web-app.ts';

function send(reply: FastifyReply, status: number, code: number, message: string, data: Record<string, unknown> | null) {
  return reply.status(status).type('application/json; charset=utf-8').send({ code, message, data });
}

function zodIssues(error: FastifyError): Issue[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  return error.validation.map((v) => {
    const where = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    return { path: where || (error.validationContext ?? ''), message: v.message ?? 'is invalid' };
  });
}

/**
 * SQLSTATE codes of text PostgreSQL will not store: a character the encoding refuses (NUL in text)
 * and an escape JSON cannot hold (\u0000 in jsonb). The client sent it, so it is a 422.
 */
const REFUSED_TEXT = new Set(['22021', '22P05']);

function isRefusedText(error: FastifyError): boolean {
  return typeof error.code === 'string' && REFUSED_TEXT.has(error.code);
}

/** One handler turns every failure into the envelope; only 5xx are logged as errors. */
export function registerErrorHandling(app: FastifyInstance, basePath: string): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return send(reply, error.status, error.code, error.message, error.issues ? { issues: error.issues } : null);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = zodIssues(error);
      const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
      return send(reply, 422, CODES.invalid, `Invalid request: ${summary}`, { issues });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
      return send(reply, 500, CODES.internal, 'Internal server error', { requestId: String(request.id) });
    }
    if (isRefusedText(error)) {
      request.log.info({ err: error }, 'request text refused by the database');
      return send(reply, 422, CODES.invalid, 'The request holds a character that cannot be stored (such as NUL).', {
        issues: [],
      });
    }
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
      return send(reply, 413, CODES.tooLarge, 'Request body is too large.', null);
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
      return send(reply, 415, CODES.badRequest, 'Unsupported content type.', null);
    }
    if (status === 429) return send(reply, 429, CODES.tooMany, error.message, null);
    if (status >= 400 && status < 500) {
      const message =
        error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError ? 'Malformed request body.' : error.message;
      return send(reply, status, status === 404 ? CODES.notFound : CODES.badRequest, message, null);
    }
    request.log.error({ err: error }, 'unexpected error');
    return send(reply, 500, CODES.internal, 'Internal server error', { requestId: String(request.id) });
  });

  app.setNotFoundHandler((request, reply) => {
    const page =
      request.method === 'GET' &&
      !isReservedPath(request.url, basePath) &&
      !/\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '');
    if (page && app.sendWebIndex) return app.sendWebIndex(reply);
    return send(reply, 404, CODES.notFound, `Route ${request.method} ${request.url.split('?')[0]} not found`, null);
  });
}
