import { envelope } from '@gdb/shared/api/envelope';
import { brandSchema, datakindSchema, localeSchema, productLineSchema } from '@gdb/shared/reference/reference.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import type { ReferenceService } from './reference.service.ts';

export function referenceRoutes(reference: ReferenceService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['reference'];
    app.get('/brands/list', { schema: { tags, response: { 200: envelope(z.array(brandSchema)) } } }, async () =>
      ok(await reference.brands()),
    );
    app.get('/locales/list', { schema: { tags, response: { 200: envelope(z.array(localeSchema)) } } }, async () =>
      ok(await reference.locales()),
    );
    app.get('/productlines/list', { schema: { tags, response: { 200: envelope(z.array(productLineSchema)) } } }, async () =>
      ok(await reference.productLines()),
    );
    app.get('/datakinds/list', { schema: { tags, response: { 200: envelope(z.array(datakindSchema)) } } }, async () =>
      ok(await reference.datakinds()),
    );
  };
}
