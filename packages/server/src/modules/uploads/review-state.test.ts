import { describe, expect, it } from 'vitest';
import { checkReviewRows, reviewBase } from './review-rows.ts';
import { recheck, reviewState } from './review-state.ts';

const MODEL = {
  type: 'object',
  required: ['code', 'price'],
  properties: { code: { type: 'string' }, price: { type: 'number' } },
};

const FILE = {
  fields: ['code', 'price'],
  rows: [
    { code: 'A1', price: '1' },
    { code: 'B2', price: 'x' },
    { code: null, price: '3' },
    { code: 'D4', price: 'five' },
  ],
  format: 'csv',
};

/** checkReviewRows, noting the rows each call checks. */
function countingCheck() {
  const checked: number[][] = [];
  const check: typeof checkReviewRows = (model, rows) => {
    checked.push(rows.map((r) => r.index));
    return checkReviewRows(model, rows);
  };
  return { checked, check };
}

describe('the review state', () => {
  it('checks again only the corrected rows when it is read, and only the rows changed after', () => {
    const base = reviewBase(FILE, MODEL, undefined);
    expect([...base.problems.keys()]).toEqual([1, 2, 3]);
    const { checked, check } = countingCheck();

    const state = reviewState(base, [{ rowIndex: 1, field: 'price', value: '2.5', removed: false }], check);
    expect(checked).toEqual([[1]]);
    expect([...state.problems.keys()]).toEqual([2, 3]);

    state.edits.set(3, new Map([['price', 'abc']]));
    const found = recheck(state, [3, 3], check);
    expect(checked).toEqual([[1], [3]]);
    expect(found.get(3)?.map((p) => p.field)).toEqual(['price']);
    expect([...state.problems.keys()]).toEqual([2, 3]);
  });

  it('checks no row when it is read with no correction', () => {
    const { checked, check } = countingCheck();
    reviewState(reviewBase(FILE, MODEL, undefined), [], check);
    expect(checked).toEqual([[]]);
  });
});
