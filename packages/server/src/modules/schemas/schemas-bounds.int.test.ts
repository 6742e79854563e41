import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { newId } from '../../platform/ids.ts';

// A manager saves data models built to stall the server that compiles them: each is refused on
// save, its message naming the setting that bounds it (and where, when it is one place).

let t: TestApp;
let manager: string;
beforeAll(async () => {
  t = await createTestApp();
  manager = (await t.signedIn(['manager'])).token;
});
afterAll(async () => {
  await t.close();
});

const save = (jsonSchema: Record<string, unknown>) =>
  t.call('POST', '/schemas', { token: manager, body: { name: `Hostile ${newId().slice(-8)}`, folder: null, jsonSchema } });

/** One definition of 30 fields, referenced by 400 properties: about 15 KB of JSON. */
function referencedOften(): Record<string, unknown> {
  const fields = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, { type: 'string', maxLength: 9 }]));
  const properties = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`p${i}`, { $ref: '#/definitions/d' }]));
  return { type: 'object', definitions: { d: { type: 'object', properties: fields } }, properties };
}

/** Properties nested `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('a data model that would stall its compile is refused on save', () => {
  it('refuses the 15 KB model with one definition referenced 400 times, naming SCHEMA_MAX_EXPANDED_SCHEMAS', async () => {
    const model = referencedOften();
    expect(JSON.stringify(model).length).toBeLessThan(16_000);
    const res = await save(model);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('SCHEMA_MAX_EXPANDED_SCHEMAS');
    expect(res.body.message).toContain('1000 schemas');
  });

  it('refuses an enum of 100,000 values, naming SCHEMA_MAX_ENUM_VALUES and where it is', async () => {
    const values = Array.from({ length: 100_000 }, (_, i) => i);
    const res = await save({ type: 'object', properties: { code: { type: 'integer', enum: values } } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'jsonSchema.properties.code.enum: the enum lists 100000 values, more than SCHEMA_MAX_ENUM_VALUES allows (2000)',
    );
    expect(res.body.data.issues).toEqual([{ path: 'jsonSchema.properties.code.enum', message: res.body.message }]);
  });

  it('refuses a model nested 200 objects deep, naming SCHEMA_MAX_DEPTH', async () => {
    const res = await save(nested(200));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /^jsonSchema(\.properties\.a)+: the data model nests deeper than SCHEMA_MAX_DEPTH allows \(64 levels\)$/,
    );
  });

  it('refuses a model larger than SCHEMA_MAX_KIB', async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(200) }]),
    );
    const res = await save({ type: 'object', properties });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^The data model takes \d+ KiB, more than SCHEMA_MAX_KIB allows \(256 KiB\)$/);
  });

  it('keeps a model within every bound, a definition referenced a few times included', async () => {
    const fields = { a: { type: 'string' }, b: { type: 'integer' } };
    const res = await save({
      type: 'object',
      definitions: { d: { type: 'object', properties: fields } },
      properties: { one: { $ref: '#/definitions/d' }, two: { $ref: '#/definitions/d' } },
    });
    expect(res.status, res.body.message).toBe(200);
  });
});

describe('a pattern the linear-time engine cannot run is refused on save', () => {
  it('refuses a backreference, naming the field path', async () => {
    const res = await save({ type: 'object', properties: { code: { type: 'string', pattern: '^(a)\\1$' } } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^jsonSchema\.properties\.code\.pattern: Pattern cannot be checked in linear time/);
    expect(res.body.data.issues[0].path).toBe('jsonSchema.properties.code.pattern');
  });

  it('refuses a lookahead in a nested field and in a patternProperties name', async () => {
    const lookahead = await save({
      type: 'object',
      properties: { dealer: { type: 'object', properties: { zip: { type: 'string', pattern: '^(?=\\d)\\w+$' } } } },
    });
    expect(lookahead.status).toBe(400);
    expect(lookahead.body.data.issues[0].path).toBe('jsonSchema.properties.dealer.properties.zip.pattern');
    const named = await save({ type: 'object', patternProperties: { '^(?!x)': { type: 'string' } } });
    expect(named.status).toBe(400);
    expect(named.body.message).toMatch(/^jsonSchema\.patternProperties\.\^\(\?!x\): Pattern cannot be checked in linear time/);
  });

  it('keeps ^(a+)+$: the linear-time engine runs it', async () => {
    const res = await save({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } });
    expect(res.status, res.body.message).toBe(200);
  });
});
