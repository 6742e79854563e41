import { API_ACCESS } from '@gdb/shared/api/access';
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
let operations: { name: string; key: string; op: Operation }[];
beforeAll(async () => {
  t = await createTestApp();
  const { token } = await t.signedIn(['user']);
  const res = await t.app.inject({ method: 'GET', url: `${BASE}/docs/json`, headers: { 'x-token': token } });
  doc = description.parse(res.json());
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

  it('puts no nullable beside a $ref (3.1 has no nullable)', () => {
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
  });
});
