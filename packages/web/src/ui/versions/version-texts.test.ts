import { afterEach, describe, expect, it, vi } from 'vitest';
import { showApart } from './version-texts.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('bulk result toasts', () => {
  it('shows the first at once and each next one 100 ms after the one before', () => {
    vi.useFakeTimers();
    const shown: string[] = [];
    showApart(['a', 'b', 'c'], (t) => shown.push(t));
    expect(shown).toEqual(['a']);
    vi.advanceTimersByTime(99);
    expect(shown).toEqual(['a']);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(['a', 'b']);
    vi.advanceTimersByTime(100);
    expect(shown).toEqual(['a', 'b', 'c']);
  });
});
