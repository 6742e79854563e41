import { describe, expect, it } from 'vitest';
import { parseRepeatPattern, type RepeatPattern } from './repeat-pattern.ts';
import { instantOf, nextRunIn, wallClock } from './zoned-time.ts';

function pattern(text: string): RepeatPattern {
  const p = parseRepeatPattern(text);
  if (!p) throw new Error(text);
  return p;
}

describe('repeat patterns on a wall clock', () => {
  it('fires a daily time at that local time, before and after a daylight-saving change', () => {
    const daily = pattern('0 6 * * *');
    expect(nextRunIn(daily, new Date('2026-03-28T12:00:00Z'), 'Europe/Paris')).toEqual(new Date('2026-03-29T04:00:00Z'));
    expect(nextRunIn(daily, new Date('2026-03-27T12:00:00Z'), 'Europe/Paris')).toEqual(new Date('2026-03-28T05:00:00Z'));
    expect(nextRunIn(daily, new Date('2026-03-27T12:00:00Z'), 'UTC')).toEqual(new Date('2026-03-28T06:00:00Z'));
  });

  it('keeps weekdays and month days local where the day differs from UTC', () => {
    // 00:30 on a Monday in Tokyo is Sunday 15:30 UTC.
    expect(nextRunIn(pattern('30 0 * * mon'), new Date('2026-03-10T00:00:00Z'), 'Asia/Tokyo')).toEqual(
      new Date('2026-03-15T15:30:00Z'),
    );
    expect(nextRunIn(pattern('0 23 1 * *'), new Date('2026-03-10T00:00:00Z'), 'America/New_York')).toEqual(
      new Date('2026-04-02T03:00:00Z'),
    );
  });

  it('skips a time that a change of clocks skips, and runs a repeated hour once', () => {
    // 02:30 does not exist in Paris on 2026-03-29: the next run is the day after.
    expect(nextRunIn(pattern('30 2 * * *'), new Date('2026-03-28T12:00:00Z'), 'Europe/Paris')).toEqual(
      new Date('2026-03-30T00:30:00Z'),
    );
    expect(instantOf(new Date('2026-03-29T02:30:00Z'), 'Europe/Paris')).toBeNull();
    const first = nextRunIn(pattern('30 2 * * *'), new Date('2026-10-24T12:00:00Z'), 'Europe/Paris');
    const second = nextRunIn(pattern('30 2 * * *'), first, 'Europe/Paris');
    expect(second.getTime() - first.getTime()).toBeGreaterThan(23 * 3600_000);
  });

  it('reads an instant on a wall clock and back', () => {
    const at = new Date('2026-07-14T10:15:00Z');
    const wall = wallClock(at, 'America/Sao_Paulo');
    expect(wall).toEqual(new Date('2026-07-14T07:15:00Z'));
    expect(instantOf(wall, 'America/Sao_Paulo')).toEqual(at);
  });
});
