import { describe, expect, it } from 'vitest';
import { withOpened } from './opened-trail.ts';

const doc = (id: string, familyId: string, name: string) => ({ _id: id, familyId, name });

describe('the breadcrumb of opened documents', () => {
  it('adds a document last, and puts another version of one already there in its place', () => {
    let trail = withOpened([], doc('a1', 'a', 'alpha'));
    trail = withOpened(trail, doc('b1', 'b', 'beta'));
    trail = withOpened(trail, doc('a2', 'a', 'alpha renamed'));
    expect(trail).toEqual([
      { id: 'a2', familyId: 'a', name: 'alpha renamed' },
      { id: 'b1', familyId: 'b', name: 'beta' },
    ]);
  });

  it('keeps the last ten', () => {
    let trail = withOpened([], doc('x0', 'f0', 'n0'));
    for (let i = 1; i < 12; i++) trail = withOpened(trail, doc(`x${i}`, `f${i}`, `n${i}`));
    expect(trail).toHaveLength(10);
    expect(trail[0]?.id).toBe('x2');
  });
});
