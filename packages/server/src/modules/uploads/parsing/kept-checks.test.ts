import { describe, expect, it } from 'vitest';
import { checksCompiled, keptCheck } from './kept-checks.ts';

describe('checks kept by data model key', () => {
  it('keeps the 32 data models used last, dropping the one used least recently', () => {
    const compiles: string[] = [];
    const check = (key: string) => keptCheck(key, 'rows', () => compiles.push(key));
    const before = checksCompiled();
    for (let i = 0; i < 32; i++) check(`lru-${i}`);
    // Used again, the first is the most recent: the second is the one dropped by a 33rd model.
    check('lru-0');
    check('lru-32');
    expect(compiles).toHaveLength(33);
    check('lru-0');
    check('lru-2');
    expect(compiles).toHaveLength(33);
    check('lru-1');
    expect(compiles.slice(33)).toEqual(['lru-1']);
    expect(checksCompiled() - before).toBe(34);
  });

  it('keeps each kind of check of a model apart, and none without a key', () => {
    const before = checksCompiled();
    expect(keptCheck('kinds', 'rows', () => 'rows')).toBe('rows');
    expect(keptCheck('kinds', 'columns', () => null)).toBe(null);
    expect(keptCheck('kinds', 'columns', () => 'again')).toBe(null);
    expect(keptCheck(undefined, 'rows', () => 'once')).toBe('once');
    expect(keptCheck(undefined, 'rows', () => 'twice')).toBe('twice');
    expect(checksCompiled() - before).toBe(4);
  });
});
