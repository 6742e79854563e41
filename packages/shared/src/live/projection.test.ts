import { describe, expect, it } from 'vitest';
import type { LiveProjection } from './live.schemas.ts';
import { applyProjection, mergeProjections, projectionMode } from './projection.ts';

const doc = { _id: '1', a: 1, b: 2, c: 3 };

describe('live projections', () => {
  it('knows inclusion, exclusion, everything and the refused mix', () => {
    expect(projectionMode(undefined)).toBe('all');
    expect(projectionMode({ _id: 1 })).toBe('all');
    expect(projectionMode({ a: 1, b: true })).toBe('include');
    expect(projectionMode({ a: 0, b: false })).toBe('exclude');
    expect(projectionMode({ a: 1, b: 0 })).toBe('mixed');
  });

  it('keeps included fields, drops excluded ones, and always keeps _id', () => {
    expect(applyProjection(doc, { a: 1 })).toEqual({ _id: '1', a: 1 });
    expect(applyProjection(doc, { a: 0, b: false })).toEqual({ _id: '1', c: 3 });
    expect(applyProjection(doc, { _id: 0, a: 0 })).toEqual({ _id: '1', b: 2, c: 3 });
    expect(applyProjection(doc, undefined)).toEqual(doc);
  });

  it('merges inclusions into their union', () => {
    expect(mergeProjections([{ a: 1 }, { b: 1 }, { a: true }])).toEqual({ a: 1, b: 1 });
  });

  it('merges exclusions into the fields every one of them excludes', () => {
    expect(
      mergeProjections([
        { a: 0, b: 0 },
        { b: 0, c: 0 },
      ]),
    ).toEqual({ b: 0 });
  });

  it('cancels out a field that one includes and another excludes', () => {
    expect(mergeProjections([{ a: 1 }, { a: 0, b: 0 }])).toEqual({ b: 0 });
    expect(mergeProjections([{ b: 1 }, { b: 0 }])).toEqual({});
  });

  it('selects everything when one of them has no projection', () => {
    expect(mergeProjections([{ a: 1 }, undefined])).toEqual({});
    expect(mergeProjections([{ a: 0 }, {}])).toEqual({});
  });

  it('serves each merged projection to every subscriber', () => {
    const list: LiveProjection[] = [{ a: 1 }, { c: 0 }, { a: 0, c: 0 }];
    const merged = mergeProjections(list);
    const served = applyProjection(doc, merged);
    for (const p of list) {
      for (const k of Object.keys(applyProjection(doc, p))) expect(served).toHaveProperty(k);
    }
  });
});
