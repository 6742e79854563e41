import { describe, expect, it } from 'vitest';
import { at, DEALER } from './schema-fixtures.ts';
import { jsonText, jsonToTree, treeToJson } from './schema-json.ts';
import { allowedChildren, coerceValue, optionError, optionFields, parseEnumValue } from './schema-rules.ts';

describe('JSON schema and node tree', () => {
  it('reads every node type and writes the same schema back', () => {
    const tree = jsonToTree(DEALER, 'Dealer');
    expect(tree.kind).toBe('jsonSchema');
    expect(tree.name).toBe('Dealer');
    expect(tree.children.map((c) => c.kind)).toEqual(['definitions', 'object']);
    const props = at(tree, 'schema', 'properties');
    expect(props.children.map((c) => `${c.name}:${c.kind}`)).toEqual([
      'dealerCode:string',
      'name:string',
      'vehicles:integer',
      'tags:array',
      'address:ref',
      'either:anyOf',
      'never:not',
      'maybe:string',
    ]);
    expect(at(tree, 'schema').children.map((c) => c.kind)).toEqual(['properties', 'required', 'dependencies']);
    expect(at(tree, 'schema', 'properties', 'tags').children[0]?.kind).toBe('items');
    expect(treeToJson(tree)).toEqual(DEALER);
  });

  it('writes the JSON text indented by 4 spaces', () => {
    expect(jsonText({ a: { b: 1 } })).toBe('{\n    "a": {\n        "b": 1\n    }\n}');
  });

  it('reads an empty schema as a root without a type', () => {
    const tree = jsonToTree({}, 'Empty');
    expect(tree.children).toEqual([]);
    expect(treeToJson(tree)).toEqual({});
  });
});

describe('node rules', () => {
  const tree = jsonToTree(DEALER, 'Dealer');
  it('an object takes properties, required, dependencies and enum once each; required and dependencies only with properties', () => {
    expect(allowedChildren(at(tree, 'schema'))).toEqual(['enum']);
    const bare = jsonToTree({ type: 'object' }, 'Bare');
    expect(allowedChildren(at(bare, 'schema'))).toEqual(['properties', 'enum']);
  });
  it('an array takes one child; integer, number and string only an enum; the root one definitions and one type child', () => {
    expect(allowedChildren(at(tree, 'schema', 'properties', 'tags'))).toEqual([]);
    expect(allowedChildren(at(tree, 'schema', 'properties', 'name'))).toEqual(['enum']);
    expect(allowedChildren(at(tree, 'schema', 'properties', 'vehicles'))).toEqual([]);
    expect(allowedChildren(at(tree, 'schema', 'properties', 'maybe', ...[]))).toEqual(['enum']);
    expect(allowedChildren(tree)).toEqual([]);
    expect(allowedChildren(jsonToTree({}, 'E'))).toContain('definitions');
    expect(allowedChildren(jsonToTree({}, 'E'))).toContain('object');
  });
  it('a dependency holds a list of property names or one schema, never both', () => {
    const deps = jsonToTree(
      { type: 'object', properties: { a: {}, b: {} }, dependencies: { a: ['b'], b: { type: 'object', properties: {} } } },
      'D',
    );
    expect(allowedChildren(at(deps, 'schema', 'dependencies'))).toEqual(['dependencyItem']);
    expect(allowedChildren(at(deps, 'schema', 'dependencies', 'a'))).toEqual([]);
    expect(allowedChildren(at(deps, 'schema', 'dependencies', 'b'))).toEqual([]);
    const empty = jsonToTree({ type: 'object', properties: { a: {} }, dependencies: { a: [] } }, 'D');
    expect(allowedChildren(at(empty, 'schema', 'dependencies', 'a'))).toContain('object');
  });
  it('limits the options of each type', () => {
    const multiple = (kind: 'integer' | 'number') => optionFields(kind).find((f) => f.key === 'multipleOf');
    const int = multiple('integer');
    const num = multiple('number');
    if (!int || !num) throw new Error('multipleOf missing');
    expect(optionError(int, 0)).toBe('Multiple of must be at least 1');
    expect(optionError(int, 1.5)).toBe('Multiple of must be an integer');
    expect(optionError(int, 2)).toBeNull();
    expect(optionError(num, 0)).toBe('Multiple of must be greater than 0');
    expect(optionError(num, 0.5)).toBeNull();
    const columns = optionFields('array').find((f) => f.key === 'columns');
    const minItems = optionFields('array').find((f) => f.key === 'minItems');
    if (!columns || !minItems) throw new Error('array options missing');
    expect(optionError(columns, 13)).toBe('Columns must be at most 12');
    expect(optionError(columns, 0)).toBe('Columns must be at least 1');
    expect(optionError(minItems, -1)).toBe('Min items must be at least 0');
    expect(optionFields('object').map((f) => f.key)).toEqual(
      expect.arrayContaining(['additionalProperties', 'minProperties', 'maxProperties']),
    );
    expect(optionFields('string').map((f) => f.key)).toEqual(
      expect.arrayContaining(['minLength', 'maxLength', 'pattern', 'format']),
    );
  });
  it('enum values must be JSON of the parent type; the value editor coerces', () => {
    expect(parseEnumValue('"a"', 'string')).toEqual({ ok: true, value: 'a' });
    expect(parseEnumValue('a', 'string').ok).toBe(false);
    expect(parseEnumValue('1.5', 'integer')).toEqual({ ok: false, error: 'The value 1.5 is not of type integer' });
    expect(coerceValue('12', 'integer')).toEqual({ ok: true, value: 12 });
    expect(coerceValue('true', 'boolean')).toEqual({ ok: true, value: true });
    expect(coerceValue('x', 'number').ok).toBe(false);
    expect(coerceValue('12', 'string')).toEqual({ ok: true, value: '12' });
  });
});
