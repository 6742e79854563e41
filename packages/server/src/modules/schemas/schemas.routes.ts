import multipart from '@fastify/multipart';
import { envelope } from '@gdb/shared/api/envelope';
import { RULE_MESSAGES } from '@gdb/shared/schemas/schema-rules';
import {
  cacheClearAnswerSchema,
  schemaByNameQuerySchema,
  schemaByNameSchema,
  schemaDeleteQuerySchema,
  schemaDocumentSchema,
  schemaFindQuerySchema,
  schemaGenerateAnswerSchema,
  schemaIdsQuerySchema,
  schemaListEntrySchema,
  schemaSaveBodySchema,
} from '@gdb/shared/schemas/schemas.schemas';
import { MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import { badRequest, invalid } from '../../platform/http/errors.ts';
import { duplicateKey } from '../../platform/json-duplicates.ts';
import { generateFromRequest, type IntakeBudget, MAX_EXAMPLE_FILES } from './schema-generate.ts';
import type { SchemasService } from './schemas.service.ts';

/** The data model calls (docs/product.md §18.2); the version calls are registered with the engine's routes. */
export function schemasRoutes(schemas: SchemasService, budget: IntakeBudget) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(generateRoute(budget));
    await fastify.register(saveRoute(schemas));
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['schemas'];
    app.get(
      '/schemas/byname',
      { schema: { tags, querystring: schemaByNameQuerySchema, response: { 200: envelope(schemaByNameSchema) } } },
      async (req) => ok(await schemas.byName(req.query.name, requireAuth(req))),
    );
    app.get(
      '/schemas',
      { schema: { tags, querystring: schemaIdsQuerySchema, response: { 200: envelope(z.array(schemaDocumentSchema)) } } },
      async (req) => ok(await schemas.many(req.query.ids, requireAuth(req))),
    );
    app.get(
      '/schemas/find',
      { schema: { tags, querystring: schemaFindQuerySchema, response: { 200: envelope(schemaDocumentSchema) } } },
      async (req) => ok(await schemas.find(req.query.id, requireAuth(req))),
    );
    app.get('/schemas/list', { schema: { tags, response: { 200: envelope(z.array(schemaListEntrySchema)) } } }, async (req) =>
      ok(await schemas.list(requireAuth(req))),
    );
    app.delete(
      '/schemas',
      {
        schema: {
          tags,
          querystring: schemaDeleteQuerySchema,
          response: { 200: envelope(z.object({ _id: z.string().describe('Id of the deleted version.') })) },
        },
      },
      async (req) => ok(await schemas.remove(requireAuth(req), req.query.id)),
    );
    app.post('/schemas/cache-clear', { schema: { tags, response: { 200: envelope(cacheClearAnswerSchema) } } }, async () =>
      ok(schemas.clearCache()),
    );
  };
}

/**
 * POST /schemas: the JSON body read as everywhere else, then refused (400, the node rule's
 * message) when one of its objects names a key twice: JSON.parse would keep the last in silence.
 */
function saveRoute(schemas: SchemasService) {
  return async (fastify: FastifyInstance) => {
    const parse = fastify.getDefaultJsonParser('error', 'error');
    fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      parse(req, text, (error, value) => {
        if (error) return done(error, undefined);
        const twice = duplicateKey(text);
        if (!twice) return done(null, value);
        const message = RULE_MESSAGES.nameUsed(twice.key);
        done(badRequest(message, [{ path: twice.path, message }]), undefined);
      });
    });
    fastify
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/schemas',
        { schema: { tags: ['schemas'], body: schemaSaveBodySchema, response: { 200: envelope(schemaDocumentSchema) } } },
        async (req) => ok(await schemas.save(requireAuth(req), req.body), 'Schema saved'),
      );
  };
}

/** POST /schemas/generate: data models inferred from example files, received like uploads (multipart, 20 MiB a file, the in-flight budget). */
function generateRoute(budget: IntakeBudget) {
  return async (fastify: FastifyInstance) => {
    await fastify.register(multipart, {
      limits: { fileSize: MAX_FILE_BYTES, files: MAX_EXAMPLE_FILES, fields: 5, parts: MAX_EXAMPLE_FILES + 5, fieldSize: 64 },
    });
    fastify.withTypeProvider<ZodTypeProvider>().post(
      '/schemas/generate',
      {
        bodyLimit: MAX_EXAMPLE_FILES * MAX_FILE_BYTES,
        schema: { tags: ['schemas'], consumes: ['multipart/form-data'], response: { 200: envelope(schemaGenerateAnswerSchema) } },
      },
      async (req) => {
        if (!req.isMultipart()) throw invalid('Send the example files as multipart/form-data.');
        const length = Number(req.headers['content-length']);
        const share = budget.admit(Number.isFinite(length) && length > 0 ? length : 0);
        try {
          return ok(await generateFromRequest(req, share));
        } finally {
          share.release();
        }
      },
    );
  };
}
