import { envelope } from '@gdb/shared/api/envelope';
import {
  createImportBodySchema,
  currentJobSchema,
  editJobBodySchema,
  importIdBodySchema,
  importIdQuerySchema,
  jobCreatedSchema,
  jobIdQuerySchema,
  listAllFiltersSchema,
  listAllQuerySchema,
  listAllSchema,
  listScheduledSchema,
  pipelineIdQuerySchema,
  runAllBodySchema,
} from '@gdb/shared/imports/import.schemas';
import { IMPORT_MESSAGES } from '@gdb/shared/imports/import-rules';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import type { ImportsService } from './imports.service.ts';

const created = envelope(jobCreatedSchema);
const none = envelope(z.null());

type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

const tags = ['imports'];

/** The calls on jobs: create, run a master's countries, replace, read, delete, list the scheduled ones. */
function jobRoutes(app: App, imports: ImportsService) {
  app.post(
    '/imports',
    {
      schema: {
        tags,
        description:
          'Creates a job and its first import: kind immediate (queued now), scheduled (scheduledDate YYYY-MM-DD and scheduledTime HH:mm in UTC, or an ISO date-time in scheduledDate), repeat (repeatPattern, not for the role user) or sequential (the listed country pipelines of a master, in order; all of them when the list is empty).',
        body: createImportBodySchema,
        response: { 200: created },
      },
    },
    async (req) => ok(await imports.create(requireAuth(req), req.body)),
  );
  app.post(
    '/imports/runAllImport',
    {
      schema: {
        tags,
        description:
          'Runs every country pipeline of a master that the caller may use, one after the other, in name order: a sequential job (restartOnError by default) whose import follows the countries. Answers the job and its import like POST /imports.',
        body: runAllBodySchema,
        response: { 200: created },
      },
    },
    async (req) => ok(await imports.runAll(requireAuth(req), req.body.pipelineId, req.body.restartOnError)),
  );
  app.post(
    '/imports/job',
    {
      schema: {
        tags,
        description: 'Gives a job a new schedule; refused while its pipeline runs an import or has an immediate one waiting.',
        body: editJobBodySchema,
        response: { 200: created },
      },
    },
    async (req) => ok(await imports.edit(requireAuth(req), req.body)),
  );
  app.get(
    '/imports/job',
    { schema: { tags, querystring: pipelineIdQuerySchema, response: { 200: envelope(currentJobSchema) } } },
    async (req) => ok(await imports.currentJob(requireAuth(req), req.query.pipelineId)),
  );
  app.delete(
    '/imports/job',
    {
      schema: {
        tags,
        description:
          'Deletes a job and its waiting imports; refused for a job kind the caller may not create (a repeat job, to the role user).',
        querystring: jobIdQuerySchema,
        response: { 200: none },
      },
    },
    async (req) => {
      await imports.deleteJob(requireAuth(req), req.query.jobId);
      return ok(null);
    },
  );
  app.get('/imports/listScheduled', { schema: { tags, response: { 200: envelope(listScheduledSchema) } } }, async (req) =>
    ok(await imports.listScheduled(requireAuth(req))),
  );
}

/** The calls on imports: cancel a waiting one, stop one or all, the logbook and a pipeline's imports. */
function importRoutes(app: App, imports: ImportsService) {
  app.delete('/imports', { schema: { tags, querystring: importIdQuerySchema, response: { 200: none } } }, async (req) => {
    await imports.deleteImport(requireAuth(req), req.query.importId);
    return ok(null, IMPORT_MESSAGES.cancelled);
  });
  app.post(
    '/imports/abort',
    {
      schema: {
        tags,
        body: importIdBodySchema,
        response: {
          200: envelope(
            z.object({
              importId: z.string().describe('The import.'),
              state: z.string().describe('Its state now: aborted, or still running until its worker stops it.'),
            }),
          ),
        },
      },
    },
    async (req) => ok(await imports.abort(requireAuth(req), req.body.importId), IMPORT_MESSAGES.aborted),
  );
  app.post(
    '/imports/abort-all',
    { schema: { tags, body: z.object({}).optional(), response: { 200: envelope(z.literal(true)) } } },
    async () => ok(await imports.abortAll(), IMPORT_MESSAGES.allStopping),
  );
  app.get(
    '/imports/listAll',
    { schema: { tags, querystring: listAllQuerySchema, response: { 200: envelope(listAllSchema) } } },
    async (req) => ok(await imports.listAll(requireAuth(req), req.query)),
  );
  app.get('/imports/listAllFilters', { schema: { tags, response: { 200: envelope(listAllFiltersSchema) } } }, async (req) =>
    ok(await imports.listAllFilters(requireAuth(req))),
  );
  app.get(
    '/imports/pipeline',
    { schema: { tags, querystring: pipelineIdQuerySchema, response: { 200: envelope(z.array(z.string())) } } },
    async (req) => ok(await imports.pipelineImports(requireAuth(req), req.query.pipelineId)),
  );
}

export function importsRoutes(imports: ImportsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    jobRoutes(app, imports);
    importRoutes(app, imports);
  };
}
