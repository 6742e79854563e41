import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../platform/db/index.ts';

const probe = z.object({ status: z.enum(['ok', 'unavailable']) });

/** Liveness (the process answers) and readiness (the database answers). */
export function healthRoutes(db: Db) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get('/healthz', { schema: { tags: ['health'], response: { 200: probe } } }, async () => ({ status: 'ok' as const }));
    app.get('/readyz', { schema: { tags: ['health'], response: { 200: probe, 503: probe } } }, async (req, reply) => {
      try {
        await db.query('select 1');
        return { status: 'ok' as const };
      } catch (err) {
        req.log.warn({ err }, 'readiness check failed');
        return reply.status(503).send({ status: 'unavailable' as const });
      }
    });
  };
}
