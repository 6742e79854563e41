import { describe, expect, it } from 'vitest';
import { callLimits } from './call-limits.ts';

describe('callLimits', () => {
  it('admits the calls a minute of each key, then answers the seconds left until the window ends', () => {
    let now = 1_000_000;
    const limited = callLimits(() => now);
    expect([limited('a', 2), limited('a', 2)]).toEqual([undefined, undefined]);
    now += 15_000;
    expect(limited('a', 2)).toBe(45);
    expect(limited('b', 2)).toBeUndefined();
    now += 45_000;
    expect(limited('a', 2)).toBeUndefined();
  });
});
