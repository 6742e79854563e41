import { describe, expect, it } from 'vitest';
import { duplicateKey } from './json-duplicates.ts';

describe('a key written twice in one object', () => {
  it('is found with the path of its object', () => {
    expect(duplicateKey('{"a":1,"a":2}')).toEqual({ key: 'a', path: '' });
    expect(duplicateKey('{"jsonSchema":{"properties":{"x":{},"y":[{"k":1,"k":2}],"x":{}}}}')).toEqual({
      key: 'k',
      path: 'jsonSchema.properties.y.0',
    });
    expect(duplicateKey('{"p":{"x":{"type":"string"}, "x" : {"type":"integer"}}}')).toEqual({ key: 'x', path: 'p' });
  });

  it('compares keys as JSON reads them, escapes included', () => {
    expect(duplicateKey('{"a":1,"\\u0061":2}')).toEqual({ key: 'a', path: '' });
    expect(duplicateKey('{"a\\"":1,"a\\\\":2}')).toBeNull();
  });

  it('leaves alone equal keys of different objects, strings that look like keys, and arrays', () => {
    expect(duplicateKey('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}')).toBeNull();
    expect(duplicateKey('{"a":"\\"a\\":1,{","b":["a","a"]}')).toBeNull();
    expect(duplicateKey('[1,2,{"x":[],"y":{}}]')).toBeNull();
  });

  it('reads any depth without recursion', () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(duplicateKey(deep)).toBeNull();
    const twice = `${'{"a":'.repeat(50_000)}{"b":1,"b":2}${'}'.repeat(50_000)}`;
    expect(duplicateKey(twice)?.key).toBe('b');
  });
});
