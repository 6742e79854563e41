import { envelope } from '@gdb/shared/api/envelope';
import { logsJobsQuerySchema } from '@gdb/shared/imports/import.schemas';
import { type LiveLog, liveLogSchema } from '@gdb/shared/live/live.schemas';
import { statusQuerySchema } from '@gdb/shared/uploads/upload.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthContext, requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';

/** The reads behind the log calls; each checks the caller may read the uploads' or the import's pipeline. */
export interface LogReads {
  uploadLogs(auth: AuthContext, uploadIds: readonly string[]): Promise<LiveLog[]>;
  importLogs(auth: AuthContext, importId: string): Promise<LiveLog[]>;
}

/** GET /logs/uploads?ids= (the logs of uploads) and GET /logs/jobs?id= (the logs of an import), oldest first. */
export function logsRoutes(reads: LogReads) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['logs'];
    const logs = envelope(z.array(liveLogSchema));
    app.get('/logs/uploads', { schema: { tags, querystring: statusQuerySchema, response: { 200: logs } } }, async (req) =>
      ok(await reads.uploadLogs(requireAuth(req), req.query.ids)),
    );
    app.get('/logs/jobs', { schema: { tags, querystring: logsJobsQuerySchema, response: { 200: logs } } }, async (req) =>
      ok(await reads.importLogs(requireAuth(req), req.query.id)),
    );
  };
}
