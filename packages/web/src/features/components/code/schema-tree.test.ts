import { describe, expect, it } from 'vitest';
import { schemaTree } from './schema-tree.ts';

describe('schemaTree', () => {
  it('shows an array of objects with its fields, types and required marks', () => {
    const tree = schemaTree('dealers', {
      type: 'array',
      items: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: ['string', 'null'] } } },
    });
    expect(tree.title).toBe('dealers : array');
    const item = tree.children?.[0];
    expect(item?.title).toBe('[ ] : object');
    expect(item?.children?.map((c) => c.title)).toEqual(['id * : integer', 'name : string | null']);
  });

  it('stops at a bounded depth on a deeply nested model', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) schema = { type: 'object', properties: { a: schema } };
    let depth = 0;
    for (let node = schemaTree('p', schema); node.children; node = node.children[0] as typeof node) depth++;
    expect(depth).toBeLessThanOrEqual(12);
  });

  it('draws a model that is not an object as any', () => {
    expect(schemaTree('p', null)).toEqual({ key: 'p', title: 'p : any' });
  });
});
