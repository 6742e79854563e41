import { activityPageSchema, activityQuerySchema } from '@gdb/shared/activity/activity.schemas';
import { envelope } from '@gdb/shared/api/envelope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { attachmentHeader } from '../../platform/http/content-disposition.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { ActivityService } from './activity.service.ts';

/** The Activity page's calls: a page of the record, and its export. */
export function activityRoutes(activity: ActivityService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['activity'];
    app.get(
      '/activity',
      { schema: { tags, querystring: activityQuerySchema, response: { 200: envelope(activityPageSchema) } } },
      async (req) => ok(await activity.page(requireAuth(req), req.query)),
    );
    app.get('/activity/export', { schema: { tags, querystring: activityQuerySchema } }, async (req, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentHeader('activity.csv'))
        .send(await activity.exportCsv(requireAuth(req), req.query)),
    );
  };
}
