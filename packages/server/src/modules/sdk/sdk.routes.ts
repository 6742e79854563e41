import { envelope } from '@gdb/shared/api/envelope';
import { idQuerySchema } from '@gdb/shared/components/components.schemas';
import { usageSchema } from '@gdb/shared/components/hierarchy.schemas';
import { treeNodeSchema } from '@gdb/shared/folders/folders.schemas';
import {
  sdkExecuteBodySchema,
  sdkExecuteResultSchema,
  sdkFunctionSchema,
  sdkListEntrySchema,
  sdkNameParamsSchema,
  sdkSaveBodySchema,
} from '@gdb/shared/sdk/sdk.schemas';
import { vulnerabilityQuerySchema, vulnerabilityReportSchema } from '@gdb/shared/sdk/sdk-report.schemas';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth/access-control.ts';
import { ok } from '../../platform/http/envelope.ts';
import { longAnswer } from '../../platform/http/long-answer.ts';
import type { RuntimeService } from '../../runtime/runtime.service.ts';
import type { SdkService } from './sdk.service.ts';

export function sdkRoutes(sdk: SdkService, runtime: RuntimeService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['sdk'];
    app.get('/sdk', { schema: { tags, response: { 200: envelope(z.array(sdkListEntrySchema)) } } }, async (req) =>
      ok(await sdk.list(requireAuth(req))),
    );
    app.get('/sdk/explorer', { schema: { tags, response: { 200: envelope(z.array(treeNodeSchema)) } } }, async (req) =>
      ok(await sdk.explorer(requireAuth(req))),
    );
    app.get(
      '/sdk/vulnerabilities',
      { schema: { tags, querystring: vulnerabilityQuerySchema, response: { 200: envelope(vulnerabilityReportSchema) } } },
      async (req) => ok(await sdk.vulnerabilities(req.query.id, requireAuth(req), req.query.refresh)),
    );
    app.get(
      '/sdk/usages',
      { schema: { tags, querystring: idQuerySchema, response: { 200: envelope(z.array(usageSchema)) } } },
      async (req) => ok(await sdk.usages(req.query.id, requireAuth(req))),
    );
    app.get(
      '/sdk/find',
      { schema: { tags, querystring: idQuerySchema, response: { 200: envelope(sdkFunctionSchema) } } },
      async (req) => ok(await sdk.find(req.query.id, requireAuth(req))),
    );
    app.post(
      '/sdk',
      { schema: { tags, body: sdkSaveBodySchema, response: { 200: envelope(sdkFunctionSchema) } } },
      async (req) => {
        const saved = await sdk.save(requireAuth(req), req.body);
        return ok(saved, `sdk saved, id : ${saved._id}`);
      },
    );
    app.delete(
      '/sdk',
      {
        schema: {
          tags,
          querystring: idQuerySchema,
          response: { 200: envelope(z.object({ _id: z.string().describe('Id of the deleted version.') })) },
        },
      },
      async (req) => ok(await sdk.remove(requireAuth(req), req.query.id)),
    );
    app.post(
      '/sdk/:name/execute',
      {
        schema: {
          tags,
          params: sdkNameParamsSchema,
          body: sdkExecuteBodySchema,
          response: { 200: envelope(sdkExecuteResultSchema) },
        },
      },
      async (req, reply) => {
        const auth = requireAuth(req);
        const fn = await sdk.byName(req.params.name, auth);
        const { payload = [], runId } = req.body;
        // Its log lines go out on the live channel as they are written, when the editor named the run;
        // the run's id is taken once the run has one of the caller's places (a refused run takes none).
        const lines = runId ? () => sdk.testLogs(runId, auth, fn) : undefined;
        const gone = longAnswer(req, reply);
        return ok(await runtime.testSdkFunction(auth.userId, fn, payload, { gone, ...(lines ? { lines } : {}) }));
      },
    );
  };
}
