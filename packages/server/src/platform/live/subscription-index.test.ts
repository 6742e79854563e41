import { normalizeFilter } from '@gdb/shared/live/filter';
import { describe, expect, it } from 'vitest';
import { SubscriptionIndex } from './subscription-index.ts';

const sub = (name: string, collection: string, filter: Record<string, string | string[]>) => ({
  name,
  collection,
  filter: normalizeFilter(filter),
});

describe('subscription index', () => {
  it('finds the subscriptions whose filter a document matches, and only those', () => {
    const index = new SubscriptionIndex<ReturnType<typeof sub>>();
    const a = sub('a', 'logs', { importId: 'i1' });
    const b = sub('b', 'logs', { uploadId: ['u1', 'u2'] });
    const c = sub('c', 'logs', { importId: 'i1', uploadId: 'u9' });
    const d = sub('d', 'uploads', {});
    for (const s of [a, b, c, d]) index.add(s);
    expect(index.size).toBe(4);
    const names = (collection: string, doc: Record<string, unknown>) =>
      index
        .matching(collection, doc)
        .map((s) => s.name)
        .sort();
    expect(names('logs', { _id: '1', importId: 'i1', uploadId: 'u2' })).toEqual(['a', 'b']);
    expect(names('logs', { _id: '2', importId: 'i1', uploadId: 'u9' })).toEqual(['a', 'c']);
    expect(names('logs', { _id: '3', importId: 'i2', uploadId: null })).toEqual([]);
    expect(names('uploads', { _id: 'x' })).toEqual(['d']);
    expect(names('imports', { _id: 'x' })).toEqual([]);
    index.remove(b);
    index.remove(d);
    index.remove(d);
    expect(index.size).toBe(2);
    expect(names('logs', { _id: '1', importId: 'i1', uploadId: 'u2' })).toEqual(['a']);
    expect(names('uploads', { _id: 'x' })).toEqual([]);
  });
});
