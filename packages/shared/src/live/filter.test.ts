import { describe, expect, it } from 'vitest';
import { filterKey, isEmptyFilter, matchesFilter, normalizeFilter } from './filter.ts';

describe('live filters', () => {
  it('gives identical filters the same key whatever the order of keys and values', () => {
    expect(filterKey({ importId: ['b', 'a'], uploadId: 'u' })).toBe(filterKey({ uploadId: ['u'], importId: ['a', 'b', 'a'] }));
    expect(filterKey({ importId: 'a' })).not.toBe(filterKey({ importId: 'b' }));
    expect(normalizeFilter({ _id: 'x' })).toEqual({ _id: ['x'] });
  });

  it('treats a missing or empty filter as selecting everything', () => {
    expect(isEmptyFilter(undefined)).toBe(true);
    expect(isEmptyFilter({})).toBe(true);
    expect(isEmptyFilter({ _id: 'a' })).toBe(false);
    expect(matchesFilter({}, { _id: 'a' })).toBe(true);
  });

  it('matches a value, one of a list, and every key together', () => {
    const doc = { _id: '1', uploadId: 'u1', importId: 'i1' };
    expect(matchesFilter({ uploadId: 'u1' }, doc)).toBe(true);
    expect(matchesFilter({ uploadId: ['u0', 'u1'] }, doc)).toBe(true);
    expect(matchesFilter({ uploadId: 'u2' }, doc)).toBe(false);
    expect(matchesFilter({ uploadId: 'u1', importId: 'i2' }, doc)).toBe(false);
    expect(matchesFilter({ importId: 'i1' }, { _id: '2', importId: null })).toBe(false);
  });
});
