import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { type Access, accessOf } from '@gdb/shared/api/access';
import { errorEnvelope } from '@gdb/shared/api/envelope';
import { operationOf } from '@gdb/shared/api/operations';
import { ROLES } from '@gdb/shared/auth/roles';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { routeKey } from '../auth/access-control.ts';

const OPENAPI_VERSION = '3.1.1';

/** What each error status means for a caller of this API. */
const ERROR_MEANING: Record<number, string> = {
  400: 'The request is malformed.',
  401: 'No valid session: the token is missing, invalid, expired or revoked (or the credentials are wrong).',
  403: 'The caller may not do this (role, pipeline or scope).',
  404: 'What the request names does not exist.',
  409: 'The request conflicts with the current state (a name taken, a newer version, a running import).',
  413: 'A file or the request body is too large.',
  422: 'The input is invalid; `data.issues` says which field and why.',
  429: 'Too many attempts or runs at once; try again later.',
  502: 'A service the server relies on (mail, a real-time source) failed.',
  503: 'The server cannot take this now; try again after the Retry-After delay.',
};

const TAGS = [
  { name: 'health', description: 'Liveness and readiness probes.' },
  { name: 'account', description: 'Sign-in, tokens, the signed-in user, passwords.' },
  { name: 'users', description: 'User administration.' },
  { name: 'badges', description: 'The global badge list.' },
  { name: 'reference', description: 'Locales, brands, product lines and data kinds.' },
  { name: 'pipelines', description: 'Pipelines a user may work on.' },
  { name: 'uploads', description: 'Data files uploaded to pipelines, their checks and exports.' },
  { name: 'imports', description: 'Imports run now, later or on repeat, and the logbook.' },
  { name: 'logs', description: 'Logs of uploads and imports.' },
  { name: 'components', description: 'Component graphs, their code and test runs.' },
  { name: 'sdk', description: 'SDK functions components call.' },
  { name: 'endpoints', description: 'Pipelines published as HTTP endpoints.' },
  { name: 'listeners', description: 'Pipelines published as listeners of a message broker.' },
  { name: 'activity', description: 'Who changed what: corrections of uploads, documents, roles and badges.' },
];

/** The error envelope as JSON Schema 2020-12 (the dialect of OpenAPI 3.1). */
function errorEnvelopeJson(): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(errorEnvelope, { target: 'draft-2020-12', io: 'output' });
  return json;
}

/** Whether the policy leaves out a role that can sign in, so the access control may answer 403. */
function mayRefuse(access: Access): boolean {
  return typeof access !== 'string' && ROLES.some((role) => !access.includes(role));
}

/** The error statuses a route can answer: from its policy, its input schema and its service. */
function errorStatuses(access: Access, schema: FastifySchema, serviceErrors: readonly number[] = []): number[] {
  const statuses = new Set(serviceErrors);
  if (access !== 'public') statuses.add(401);
  if (mayRefuse(access)) statuses.add(403);
  if (schema.body || schema.querystring || schema.params || schema.headers) statuses.add(422);
  return [...statuses].sort((a, b) => a - b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A declared answer as an OpenAPI response: its description, and its schema as JSON content. */
function described(answer: unknown, description: string): Record<string, unknown> {
  if (isRecord(answer) && isRecord(answer.content)) return { description, ...answer };
  return { description, content: { 'application/json': { schema: answer } } };
}

/**
 * The route's schema as the description publishes it: zod turned into JSON Schema, then its
 * operation id, summary, described success answer and error answers from the shared tables.
 */
function describeRoute(basePath: string, errorJson: Record<string, unknown>): FastifyDynamicSwaggerOptions['transform'] {
  return (document) => {
    const { schema, url } = jsonSchemaTransform(document);
    const methods = [document.route.method].flat();
    const method = methods.find((m) => m !== 'HEAD') ?? 'GET';
    const key = routeKey(method, url, basePath) ?? routeKey(method, url, '');
    const operation = key ? operationOf(key) : undefined;
    const access = key ? accessOf(key) : undefined;
    if (!operation || !access || !schema || schema.hide) return { schema, url };

    const response: Record<string, unknown> = {};
    const declared = isRecord(schema.response) ? schema.response : {};
    for (const [status, answer] of Object.entries(declared)) {
      response[status] = described(
        answer,
        status.startsWith('2') ? operation.returns : (ERROR_MEANING[Number(status)] ?? status),
      );
    }
    // An answer without a schema (a file download) still says what it holds.
    if (!Object.keys(response).some((status) => status.startsWith('2'))) {
      response['200'] = {
        description: operation.returns,
        content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
      };
    }
    const form = operation.form;
    const body = form
      ? {
          type: 'object',
          required: Object.keys(form.fields),
          properties: Object.fromEntries(
            Object.entries(form.fields).map(([name, about]) => [name, { type: 'string', description: about }]),
          ),
          additionalProperties: { type: 'string', contentMediaType: 'application/octet-stream', description: form.files },
        }
      : schema.body;
    for (const status of errorStatuses(access, document.schema, operation.errors)) {
      response[String(status)] ??= described(errorJson, ERROR_MEANING[status] ?? String(status));
    }
    return {
      url,
      schema: {
        ...schema,
        ...(body ? { body } : {}),
        operationId: operation.operationId,
        summary: operation.summary,
        response,
        ...(access === 'public' ? { security: [] } : {}),
      },
    };
  };
}

/** Options of @fastify/swagger: an OpenAPI 3.1 description of every API route. */
export function apiDescriptionOptions(basePath: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: {
        title: 'GDB Importer API',
        version: '1',
        description:
          'Upload data files into versioned pipelines, run and schedule imports, read their logs, export results. ' +
          'Every answer is the envelope `{code, message, data}`; send the access token from sign-in as `X-Token`.',
      },
      servers: [{ url: '/' }],
      tags: TAGS,
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } } },
      security: [{ token: [] }],
    },
    transform: describeRoute(basePath, errorEnvelopeJson()),
  };
}
