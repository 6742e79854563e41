import { MAX_WAIT_SECONDS } from '@gdb/shared/endpoints/endpoint.schemas';
import { MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { invalid, notFound } from '../../platform/http/errors.ts';
import type { EndpointCalls } from './endpoint-calls.ts';
import type { EndpointRow } from './endpoints.repo.ts';
import { RUNTIME_PREFIX } from './endpoints.service.ts';

const OPENAPI = '/openapi.json';
const waitQuery = z.object({ wait: z.coerce.number().int().min(0).max(MAX_WAIT_SECONDS).default(0) });

/**
 * The runtime route of published endpoints, `POST /gdb-runtime/v1/{path}`, outside the API's base
 * path: no session, the endpoint's key in `X-Api-Key` (checked by `calls`). The body is read as it
 * came, whatever its type, up to 20 MiB (413 beyond), for the upload readers to check.
 */
export function runtimeRoutes(calls: EndpointCalls) {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES }, (_req, body, done) => done(null, body));
    // An endpoint's OpenAPI document, for its callers: the same key opens it.
    app.get(`${RUNTIME_PREFIX}/*`, { schema: { hide: true } }, async (req) => {
      const path = (req.params as { '*': string })['*'];
      if (!path.endsWith(OPENAPI)) throw notFound();
      const key = req.headers['x-api-key'];
      return calls.openApi(path.slice(0, -OPENAPI.length), typeof key === 'string' ? key : undefined);
    });
    const pathOf = (req: FastifyRequest) => (req.params as { '*': string })['*'];
    const keyOf = (req: FastifyRequest) => {
      const key = req.headers['x-api-key'];
      return typeof key === 'string' ? key : undefined;
    };
    // The key is checked as the request arrives: a caller without it never has a body read, let
    // alone 20 MiB of one. The endpoint found is the one the call then runs.
    const checked = new WeakMap<FastifyRequest, EndpointRow>();
    const onRequest = async (req: FastifyRequest) => {
      checked.set(req, await calls.checkKey(pathOf(req), keyOf(req)));
    };
    app.post(`${RUNTIME_PREFIX}/*`, { bodyLimit: MAX_FILE_BYTES, onRequest, schema: { hide: true } }, async (req, reply) => {
      const query = waitQuery.safeParse(req.query);
      if (!query.success) throw invalid(`wait: at most ${MAX_WAIT_SECONDS} seconds`, [{ path: 'wait', message: 'out of range' }]);
      const endpoint = checked.get(req);
      if (!endpoint) throw notFound();
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const mimetype = req.headers['content-type'] ?? 'application/octet-stream';
      const answer = await calls.call(endpoint, body, mimetype, query.data.wait);
      return reply.status(answer.outputs ? 200 : 202).send(ok(answer, answer.outputs ? 'Import ended' : 'Import started'));
    });
  };
}
