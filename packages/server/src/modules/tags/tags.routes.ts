import { envelope } from '@gdb/shared/api/envelope';
import { documentTagsAnswerSchema, updateDocumentTagsBodySchema } from '@gdb/shared/tags/document-tags.schemas';
import { tagSaveBodySchema, tagSchema } from '@gdb/shared/tags/tags.schemas';
import { idsAnswerSchema, idsQuerySchema, splitIds } from '@gdb/shared/users/users.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { DocumentTagsService } from './document-tags.service.ts';
import type { TagsService } from './tags.service.ts';

export function tagsRoutes(tags: TagsService, documentTags: DocumentTagsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const t = ['badges'];
    app.get('/tags/list', { schema: { tags: t, response: { 200: envelope(z.array(tagSchema)) } } }, async () =>
      ok(await tags.list()),
    );
    app.get('/tags/cache-reload', { schema: { tags: t, response: { 200: envelope(z.array(tagSchema)) } } }, async () =>
      ok(await tags.reload()),
    );
    app.post('/tags', { schema: { tags: t, body: tagSaveBodySchema, response: { 200: envelope(tagSchema) } } }, async (req) =>
      ok(await tags.save(req.body)),
    );
    app.delete(
      '/tags',
      { schema: { tags: t, querystring: idsQuerySchema, response: { 200: envelope(idsAnswerSchema) } } },
      async (req) => ok({ ids: await tags.remove(splitIds(req.query.ids)) }),
    );
    app.post(
      '/tags/update-document-tags',
      { schema: { tags: t, body: updateDocumentTagsBodySchema, response: { 200: envelope(documentTagsAnswerSchema) } } },
      async (req) => ok(await documentTags.update(requireAuth(req), req.body)),
    );
  };
}
