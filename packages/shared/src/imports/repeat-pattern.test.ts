import { describe, expect, it } from 'vitest';
import {
  describeRepeatPattern,
  formatRepeatPattern,
  monthlyDayWarning,
  nextRun,
  parseRepeatPattern,
  TIME_STEPS,
  toCron,
  weekdayLabel,
} from './repeat-pattern.ts';

describe('parseRepeatPattern', () => {
  it.each([
    ['H 1', { kind: 'hourly', hours: 1 }],
    ['H 23', { kind: 'hourly', hours: 23 }],
    ['M 15', { kind: 'minutely', minutes: 15 }],
    ['M 45', { kind: 'minutely', minutes: 45 }],
    ['30 6 * * *', { kind: 'daily', minute: 30, hour: 6 }],
    ['0 22 * * sun', { kind: 'weekly', minute: 0, hour: 22, weekday: 'sun' }],
    ['5 0 31 * *', { kind: 'monthly', minute: 5, hour: 0, day: 31 }],
  ])('reads %s', (text, parsed) => {
    expect(parseRepeatPattern(text)).toEqual(parsed);
    expect(formatRepeatPattern(parseRepeatPattern(text) ?? { kind: 'hourly', hours: 0 })).toBe(text);
  });

  it.each([
    '',
    'H 0',
    'H 24',
    'M 10',
    'M 60',
    '61 1 * * *',
    '0 24 * * *',
    '7 1 * * *',
    '0 1 0 * *',
    '0 1 32 * *',
    '0 1 * * fun',
    '0 1 1 1 *',
    '0 1 1 * mon',
    '* * * * *',
  ])('refuses %j', (text) => {
    expect(parseRepeatPattern(text)).toBeNull();
  });
});

describe('display and warnings', () => {
  it('writes weekdays mon to sun and Unknown otherwise', () => {
    expect(weekdayLabel('wed')).toBe('wed');
    expect(weekdayLabel('7')).toBe('Unknown');
  });

  it('warns for days 29, 30 and 31 with the spec words', () => {
    expect(monthlyDayWarning(31)).toBe('The import job will only run in a month where month ends with 31st.');
    expect(monthlyDayWarning(30)).toBe('The import job will not run in February month.');
    expect(monthlyDayWarning(29)).toBe('The import job will not run in February month, except leap year.');
    expect(monthlyDayWarning(28)).toBeNull();
  });

  it('offers times every 5 minutes from 00:00 to 23:45', () => {
    expect(TIME_STEPS[0]).toBe('00:00');
    expect(TIME_STEPS[1]).toBe('00:05');
    expect(TIME_STEPS.at(-1)).toBe('23:45');
    expect(TIME_STEPS).toHaveLength(286);
  });
});

describe('schedule', () => {
  const from = new Date('2026-01-28T10:07:30Z'); // a Wednesday

  it('computes the next run of each kind', () => {
    const next = (text: string) => nextRun(parseRepeatPattern(text) ?? { kind: 'hourly', hours: 1 }, from).toISOString();
    expect(next('H 2')).toBe('2026-01-28T12:00:00.000Z');
    expect(next('M 15')).toBe('2026-01-28T10:15:00.000Z');
    expect(next('0 10 * * *')).toBe('2026-01-29T10:00:00.000Z');
    expect(next('30 10 * * *')).toBe('2026-01-28T10:30:00.000Z');
    expect(next('0 9 * * mon')).toBe('2026-02-02T09:00:00.000Z');
    expect(next('0 0 30 * *')).toBe('2026-01-30T00:00:00.000Z');
    expect(next('0 0 31 * *')).toBe('2026-01-31T00:00:00.000Z');
    expect(nextRun({ kind: 'monthly', minute: 0, hour: 0, day: 30 }, new Date('2026-01-31T00:00:00Z')).toISOString()).toBe(
      '2026-03-30T00:00:00.000Z',
    );
  });

  it('translates to standard cron', () => {
    expect(toCron({ kind: 'weekly', minute: 5, hour: 1, weekday: 'sun' })).toBe('5 1 * * 0');
    expect(toCron({ kind: 'weekly', minute: 5, hour: 1, weekday: 'mon' })).toBe('5 1 * * 1');
    expect(toCron({ kind: 'hourly', hours: 6 })).toBe('0 */6 * * *');
  });
});

describe('describeRepeatPattern', () => {
  it('says each pattern in words', () => {
    const words = ['H 1', 'H 3', 'M 15', '5 8 * * *', '30 0 * * mon', '0 6 15 * *'].map((t) => {
      const p = parseRepeatPattern(t);
      return p ? describeRepeatPattern(p) : null;
    });
    expect(words).toEqual([
      'every hour, on the hour',
      'every 3 hours, on the hour',
      'every 15 minutes',
      'every day at 08:05',
      'every Monday at 00:30',
      'on day 15 of every month at 06:00',
    ]);
  });
});
