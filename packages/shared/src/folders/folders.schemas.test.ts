import { describe, expect, it } from 'vitest';
import { freeName } from './folders.schemas.ts';

describe('freeName', () => {
  it('keeps a free name and numbers a taken one with the smallest free number in brackets', () => {
    expect(freeName('Plan', new Set())).toBe('Plan');
    expect(freeName('Plan', new Set(['Plan']))).toBe('Plan (1)');
    expect(freeName('Plan', new Set(['Plan', 'Plan (1)', 'Plan (3)']))).toBe('Plan (2)');
    expect(freeName('Plan (1)', new Set(['Plan (1)']))).toBe('Plan (1) (1)');
    expect(freeName('plan', new Set(['Plan']))).toBe('plan');
  });
});
