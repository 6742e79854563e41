import { API_ACCESS } from '@gdb/shared/api/access';
import { loginBodySchema, sessionUserSchema } from '@gdb/shared/auth/session.schemas';
import { listAllQuerySchema } from '@gdb/shared/imports/import.schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BASE, createTestApp, type TestApp } from '../../../test/test-app.ts';

const response = z.object({
  description: z.string(),
  content: z.record(z.string(), z.object({ schema: z.unknown() })).optional(),
});
const operation = z.object({
  operationId: z.string().optional(),
  summary: z.string().optional(),
  security: z.array(z.unknown()).optional(),
  responses: z.record(z.string(), response),
});
const description = z.object({ openapi: z.string(), paths: z.record(z.string(), z.record(z.string(), operation)) });
type Operation = z.infer<typeof operation>;

let t: TestApp;
let doc: z.infer<typeof description>;
let raw: unknown;

type JsonSchema = Record<string, unknown>;
const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The value at a path of keys in parsed JSON, or undefined. */
const at = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (isObject(v) ? v[k] : undefined), value);

/** The properties (as paths) of a JSON Schema, at any depth, that have no description. */
function undescribedIn(schema: unknown, where: string): string[] {
  if (!isObject(schema)) return [];
  const found: string[] = [];
  if (isObject(schema.properties))
    for (const [name, field] of Object.entries(schema.properties)) {
      if (!isObject(field) || typeof field.description !== 'string' || !field.description) found.push(`${where}.${name}`);
      found.push(...undescribedIn(field, `${where}.${name}`));
    }
  for (const key of ['items', 'additionalProperties']) found.push(...undescribedIn(schema[key], `${where}[]`));
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const branch of Array.isArray(schema[key]) ? schema[key] : []) found.push(...undescribedIn(branch, where));
  return found;
}

/** Every query parameter, JSON body field and success answer field of the description without a description. */
function undescribedFields(document: { paths: Record<string, Record<string, JsonSchema>> }): string[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, op]) => {
      const name = `${method.toUpperCase()} ${path}`;
      const params = (Array.isArray(op.parameters) ? op.parameters : []).filter(isObject);
      const bareParams = params
        .filter((p) => !p.description && !(isObject(p.schema) && p.schema.description))
        .map((p) => `${name} ?${String(p.name)}`);
      const body = isObject(op.requestBody) ? op.requestBody : {};
      const json = isObject(body.content) ? body.content['application/json'] : undefined;
      const answers = Object.entries(isObject(op.responses) ? op.responses : {})
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([status, answer]) => {
          const content = isObject(answer) && isObject(answer.content) ? answer.content['application/json'] : undefined;
          const schema = isObject(content) && isObject(content.schema) ? content.schema : {};
          const data = isObject(schema.properties) ? schema.properties.data : undefined;
          return undescribedIn(data, `${name} ${status}`);
        });
      return [...bareParams, ...undescribedIn(isObject(json) ? json.schema : undefined, `${name} body`), ...answers];
    }),
  );
}
let operations: { name: string; key: string; op: Operation }[];
beforeAll(async () => {
  t = await createTestApp();
  const { token } = await t.signedIn(['user']);
  const res = await t.app.inject({ method: 'GET', url: `${BASE}/docs/json`, headers: { 'x-token': token } });
  raw = res.json();
  doc = description.parse(raw);
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => {
      const below = path.startsWith(`${BASE}/`) ? path.slice(BASE.length) : path;
      const key = `${method.toUpperCase()} ${below.replace(/\{(\w+)\}/g, ':$1')}`;
      return { name: `${method.toUpperCase()} ${path}`, key, op };
    }),
  );
});
afterAll(async () => {
  await t.close();
});

describe('the API description', () => {
  it('is OpenAPI 3.1 and describes every route of the access table', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(operations.map((o) => o.key).sort()).toEqual(Object.keys(API_ACCESS).sort());
  });

  it('gives every operation an operationId and a summary, the ids unique', () => {
    const missing = operations.filter(({ op }) => !op.operationId || !op.summary?.trim()).map((o) => o.name);
    expect(missing).toEqual([]);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('describes every answer (never "Default Response")', () => {
    const bare = operations.flatMap(({ name, op }) =>
      Object.entries(op.responses)
        .filter(([, r]) => !r.description || r.description === 'Default Response')
        .map(([status]) => `${name} ${status}`),
    );
    expect(bare).toEqual([]);
    for (const { name, op } of operations)
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('2')),
        name,
      ).toBe(true);
  });

  it('declares 401 on every signed-in route, 403 where the policy can refuse, 422 where input is read, all as the envelope', () => {
    for (const { name, key, op } of operations) {
      const access = API_ACCESS[key as keyof typeof API_ACCESS];
      const statuses = Object.keys(op.responses);
      if (access !== 'public') expect(statuses, name).toContain('401');
      else expect(op.security, name).toEqual([]);
      if (Array.isArray(access) && access.length < 4) expect(statuses, name).toContain('403');
      for (const status of statuses.filter((s) => s.startsWith('4'))) {
        const schema = z
          .object({ properties: z.object({ code: z.unknown(), message: z.unknown(), data: z.unknown() }) })
          .safeParse(op.responses[status]?.content?.['application/json']?.schema);
        expect(schema.success, `${name} ${status}`).toBe(true);
      }
    }
    const byId = new Map(operations.map(({ op }) => [op.operationId, Object.keys(op.responses)]));
    expect(byId.get('saveUser')).toEqual(expect.arrayContaining(['401', '403', '404', '409', '422']));
    expect(byId.get('listBadges')).not.toContain('422');
    expect(byId.get('getUploadLogs')).toContain('422');
  });

  it('describes the multipart upload the handler reads itself', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${BASE}/docs/json`,
      headers: { 'x-token': (await t.signedIn(['user'])).token },
    });
    const upload = z
      .object({
        requestBody: z.object({
          content: z.object({ 'multipart/form-data': z.object({ schema: z.object({ required: z.array(z.string()) }) }) }),
        }),
      })
      .parse(res.json().paths[`${BASE}/uploads`].post);
    expect(upload.requestBody.content['multipart/form-data'].schema.required).toEqual(['pipelineId']);
  });

  it("carries each shared schema field's description into the request bodies, query parameters and answers", () => {
    const describedAt = (...keys: string[]) => z.object({ description: z.string() }).parse(at(raw, 'paths', ...keys)).description;
    const json = ['content', 'application/json', 'schema'];
    expect(describedAt(`${BASE}/users/login`, 'post', 'requestBody', ...json, 'properties', 'username')).toBe(
      loginBodySchema.shape.username.description,
    );
    const user = [`${BASE}/users/info`, 'get', 'responses', '200', ...json, 'properties', 'data', 'properties', 'user'];
    expect(describedAt(...user, 'properties', 'unrestrictedUpload')).toBe(sessionUserSchema.shape.unrestrictedUpload.description);
    const params = z
      .array(
        z.object({
          name: z.string(),
          description: z.string().optional(),
          schema: z.object({ description: z.string().optional() }),
        }),
      )
      .parse(at(raw, 'paths', `${BASE}/imports/listAll`, 'get', 'parameters'));
    const page = params.find((p) => p.name === 'pageNumber');
    expect(page?.description ?? page?.schema.description).toBe(listAllQuerySchema.shape.pageNumber.description);
  });

  it('describes every field of every request body, query parameter and answer', () => {
    expect(
      undescribedFields(
        z.object({ paths: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown()))) }).parse(raw),
      ),
    ).toEqual([]);
  });

  it('puts no nullable beside a $ref (3.1 has no nullable)', () => {
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
  });
});
