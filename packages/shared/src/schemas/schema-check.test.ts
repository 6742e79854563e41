import { describe, expect, it } from 'vitest';
import { schemaRuleIssue } from './schema-check.ts';
import { jsonToTree, treeToJson } from './schema-json.ts';

const object = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...more,
});
const issue = (jsonSchema: Record<string, unknown>) => schemaRuleIssue(jsonSchema);

describe('a data model the editor could have written', () => {
  it('breaks no rule: every node type, definitions, tuples, both kinds of dependency', () => {
    expect(
      issue({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        required: ['code', 'name'],
        properties: {
          code: { type: 'string', pattern: '^[A-Z]{2}$', format: 'email', minLength: 1, maxLength: 9 },
          name: { type: ['string', 'null'], enum: ['a', 'b'] },
          count: { type: 'integer', minimum: 0, multipleOf: 1, enum: [1, 2] },
          ratio: { type: 'number', multipleOf: 0.5 },
          flag: { type: 'boolean', default: true },
          none: { type: 'null' },
          tags: { type: 'array', items: { type: 'string' }, minItems: 0, maxItems: 3, columns: 12 },
          pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
          ref: { $ref: '0190a1b2-0000-7000-8000-000000000001#/definitions/address' },
          either: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          all: { allOf: [{ type: 'object', properties: {} }] },
          one: { oneOf: [{ type: 'integer' }] },
          never: { not: { type: 'number' } },
          nested: object({ x: { type: 'string' } }, { required: ['x'], additionalProperties: false, minProperties: 1 }),
          untyped: {},
        },
        dependencies: { name: ['code'], count: { type: 'object', properties: { ratio: { type: 'number' } } } },
        definitions: { address: object({ city: { type: 'string' } }) },
      }),
    ).toBeNull();
    expect(issue({})).toBeNull();
    expect(issue({ definitions: {} })).toBeNull();
  });
});

describe('the node rules', () => {
  it('an object takes required and dependencies only once it has properties', () => {
    expect(issue({ type: 'object', required: ['a'] })).toEqual({
      path: 'jsonSchema',
      message: 'A object node cannot take a required node here',
    });
    expect(issue(object({ inner: { type: 'object', dependencies: { a: ['b'] } } }))).toEqual({
      path: 'jsonSchema.properties.inner',
      message: 'A object node cannot take a dependencies node here',
    });
  });

  it('an object takes no items', () => {
    expect(issue(object({}, { items: { type: 'string' } }))?.message).toBe('A object node cannot take a items node here');
  });

  it('an array takes one child, its items', () => {
    expect(issue({ type: 'array', items: { type: 'string' }, enum: [[]] })?.message).toBe(
      'A array node cannot take a enum node here',
    );
    expect(issue({ type: 'array', properties: {} })?.message).toBe('A array node cannot take a properties node here');
  });

  it('integer, number and string take only an enum; boolean and null nothing', () => {
    expect(issue(object({ s: { type: 'string', properties: { a: {} } } }))).toEqual({
      path: 'jsonSchema.properties.s',
      message: 'A string node cannot take a properties node here',
    });
    expect(issue(object({ i: { type: 'integer', items: { type: 'string' } } }))?.message).toBe(
      'A integer node cannot take a items node here',
    );
    expect(issue(object({ n: { type: 'number', required: [] } }))?.message).toBe(
      'A number node cannot take a required node here',
    );
    expect(issue(object({ b: { type: 'boolean', enum: [true] } }))?.message).toBe('A boolean node cannot take a enum node here');
    expect(issue(object({ z: { type: 'null', properties: {} } }))?.message).toBe(
      'A null node cannot take a properties node here',
    );
  });

  it('a property, definition or dependency has a name', () => {
    expect(issue(object({ '': { type: 'string' } }))).toEqual({
      path: 'jsonSchema.properties',
      message: 'The name is required',
    });
    expect(issue({ definitions: { '  ': { type: 'string' } } })?.message).toBe('The name is required');
    expect(issue(object({ a: {} }, { dependencies: { '': ['a'] } }))?.message).toBe('The name is required');
  });

  it('options stay within their limits', () => {
    const at = (schema: Record<string, unknown>) => issue(object({ p: schema }))?.message;
    expect(at({ type: 'integer', multipleOf: 0 })).toBe('Multiple of must be at least 1');
    expect(at({ type: 'integer', multipleOf: 1.5 })).toBe('Multiple of must be an integer');
    expect(at({ type: 'number', multipleOf: 0 })).toBe('Multiple of must be greater than 0');
    expect(at({ type: 'number', minimum: 'low' })).toBe('Minimum must be a number');
    expect(at({ type: 'array', items: {}, minItems: -1 })).toBe('Min items must be at least 0');
    expect(at({ type: 'array', items: {}, maxItems: -1 })).toBe('Max items must be at least 0');
    expect(at({ type: 'array', items: {}, columns: 13 })).toBe('Columns must be at most 12');
    expect(at({ type: 'array', items: {}, columns: 0 })).toBe('Columns must be at least 1');
    expect(at({ type: 'string', minLength: 'x' })).toBe('Min length must be an integer');
    expect(at({ type: 'string', maxLength: -2 })).toBe('Max length must be at least 0');
    expect(at({ type: 'string', pattern: '([' })).toBe('Pattern is not a valid regular expression');
    expect(at({ type: 'object', properties: {}, maxProperties: 1.5 })).toBe('Max properties must be an integer');
    expect(issue({ type: 'object', properties: {}, minProperties: -1 })).toEqual({
      path: 'jsonSchema',
      message: 'Min properties must be at least 0',
    });
  });

  it('enum values are of the type of their node and listed once', () => {
    expect(issue(object({ s: { type: 'string', enum: ['a', 1] } }))).toEqual({
      path: 'jsonSchema.properties.s.enum',
      message: 'The value 1 is not of type string',
    });
    expect(issue(object({ i: { type: 'integer', enum: [1.5] } }))?.message).toBe('The value 1.5 is not of type integer');
    expect(issue(object({ s: { type: 'string', enum: ['a', 'a'] } }))?.message).toBe('This value is already listed');
  });

  it('required and dependency lists name properties of their object, once each', () => {
    expect(issue(object({ a: {} }, { required: ['a', 'a'] }))).toEqual({
      path: 'jsonSchema.required',
      message: 'This value is already listed',
    });
    expect(issue(object({ a: {} }, { required: ['ghost'] }))?.message).toBe('ghost is not a property of this object');
    expect(issue(object({ a: {} }, { required: [3] }))?.message).toBe('3 is not a property of this object');
    expect(issue(object({ a: {}, b: {} }, { dependencies: { a: ['ghost'] } }))).toEqual({
      path: 'jsonSchema.dependencies.a',
      message: 'ghost is not a property of this object',
    });
  });

  it('finds a broken node deep down, and says where', () => {
    const deep = object({
      list: { type: 'array', items: object({ pair: { type: 'array', items: [{}, { type: 'string', items: {} }] } }) },
    });
    expect(issue(deep)).toEqual({
      path: 'jsonSchema.properties.list.items.properties.pair.items.1',
      message: 'A string node cannot take a items node here',
    });
    expect(issue({ definitions: { d: { anyOf: [{}, { type: 'integer', multipleOf: 0 }] } } })).toEqual({
      path: 'jsonSchema.definitions.d.anyOf.1',
      message: 'Multiple of must be at least 1',
    });
  });
});

describe('parts the editor cannot read as nodes', () => {
  it('every schema is a JSON object', () => {
    expect(issue(object({ a: 5 }))).toEqual({ path: 'jsonSchema.properties.a', message: 'A schema must be a JSON object' });
    expect(issue({ type: 'array', items: [true] })?.path).toBe('jsonSchema.items.0');
    expect(issue({ not: null })?.message).toBe('A schema must be a JSON object');
  });

  it('parts have their shape', () => {
    expect(issue({ type: 'object', properties: [] })?.message).toBe('properties must be a JSON object');
    expect(issue({ definitions: 'x' })?.message).toBe('definitions must be a JSON object');
    expect(issue(object({ a: {} }, { required: 'a' }))?.message).toBe('required must be a list');
    expect(issue(object({ s: { type: 'string', enum: 'a' } }))?.message).toBe('enum must be a list');
    expect(issue(object({ a: {} }, { dependencies: { a: 'b' } }))?.message).toBe('dependencies must be a JSON object');
    expect(issue({ anyOf: {} })?.message).toBe('anyOf must be a list');
  });

  it('types are node types', () => {
    expect(issue(object({ d: { type: 'date' } }))).toEqual({
      path: 'jsonSchema.properties.d',
      message: 'The type "date" is not one of string, integer, number, boolean, object, array, null',
    });
    expect(issue({ type: ['string', 'text'] })?.message).toBe(
      'The type "text" is not one of string, integer, number, boolean, object, array, null',
    );
    expect(issue({ type: [] })?.message).toBe('The type [] is not one of string, integer, number, boolean, object, array, null');
  });

  it('the tree keeps such parts as written, so the editor shows the data model it was given', () => {
    for (const s of [
      { type: 'date' },
      { type: 'string', properties: { a: { type: 'string' } } },
      { type: 'object', properties: { a: { type: 'string' } }, required: 'a' },
      { type: 'integer', enum: 3 },
    ]) {
      expect(treeToJson(jsonToTree(s, 'M'))).toEqual(s);
    }
  });
});

describe('large data models', () => {
  it('checks 100,000 schemas in one list and 20,000 properties in one object, with no recursion limit met', () => {
    const many = Array.from({ length: 100_000 }, () => ({ type: 'string' }));
    expect(issue({ anyOf: many })).toBeNull();
    expect(issue({ anyOf: [...many, { type: 'string', items: {} }] })).toEqual({
      path: 'jsonSchema.anyOf.100000',
      message: 'A string node cannot take a items node here',
    });
    const properties = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: 'integer' }]));
    expect(issue(object(properties, { required: Object.keys(properties) }))).toBeNull();
  }, 60_000);
});
