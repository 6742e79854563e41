import { describe, expect, it } from 'vitest';
import {
  downloadReference,
  IMPORT_MESSAGES,
  missingFieldsMessage,
  parseDownloadReference,
  resolveSchedule,
  scheduledInstant,
} from './import-rules.ts';

const now = new Date('2026-03-10T12:00:00Z');

describe('resolveSchedule', () => {
  it('answers the spec message for an unknown kind', () => {
    expect(resolveSchedule({ kind: 'weekly' }, now)).toEqual({ ok: false, message: 'Something unexpected happened.' });
    expect(resolveSchedule({ kind: '' }, now)).toEqual({ ok: false, message: IMPORT_MESSAGES.unexpected });
  });

  it('runs immediate and sequential jobs now', () => {
    expect(resolveSchedule({ kind: 'immediate' }, now)).toMatchObject({ ok: true, kind: 'immediate', scheduledAt: null });
    expect(resolveSchedule({ kind: 'sequential' }, now)).toMatchObject({ ok: true, kind: 'sequential', repeatPattern: '' });
  });

  it('needs a future date and time for Later', () => {
    expect(resolveSchedule({ kind: 'scheduled', scheduledDate: '2026-03-11', scheduledTime: '08:05' }, now)).toEqual({
      ok: true,
      kind: 'scheduled',
      scheduledAt: new Date('2026-03-11T08:05:00Z'),
      repeatPattern: '',
      timeZone: 'UTC',
    });
    expect(resolveSchedule({ kind: 'scheduled', scheduledDate: '2026-03-11' }, now)).toEqual({
      ok: false,
      message: 'Later needs a date and a time.',
    });
    expect(resolveSchedule({ kind: 'scheduled', scheduledDate: '2026-03-09', scheduledTime: '08:00' }, now)).toEqual({
      ok: false,
      message: 'The scheduled date is in the past.',
    });
  });

  it('takes a full ISO date-time with its own offset', () => {
    expect(scheduledInstant('2026-03-11T09:30:00+01:00', null)).toEqual(new Date('2026-03-11T08:30:00Z'));
    expect(scheduledInstant('2026-02-30', '10:00')).toBeNull();
    expect(scheduledInstant('2026-03-11', '24:00')).toBeNull();
  });

  it('needs a valid repeat pattern and stores it in its canonical text', () => {
    expect(resolveSchedule({ kind: 'repeat', repeatPattern: ' 30  6 * * mon ' }, now)).toMatchObject({
      ok: true,
      repeatPattern: '30 6 * * mon',
    });
    expect(resolveSchedule({ kind: 'repeat', repeatPattern: 'M 10' }, now)).toEqual({
      ok: false,
      message: 'The repeat pattern is not valid.',
    });
  });
});

describe('messages', () => {
  it('writes the missing fields the spec way', () => {
    expect(missingFieldsMessage(['Brand', 'Data Kind', 'Product Line', 'Locale'])).toBe(
      'Missing field(s) : Brand Data Kind Product Line Locale',
    );
  });

  it('writes and reads download references', () => {
    const text = downloadReference('0190a1b2-0000-7000-8000-000000000001', 'prices FR_out.csv');
    expect(text).toBe('Data download reference : 0190a1b2-0000-7000-8000-000000000001 prices FR_out.csv');
    expect(parseDownloadReference(text)).toEqual({
      uploadId: '0190a1b2-0000-7000-8000-000000000001',
      fileName: 'prices FR_out.csv',
    });
    expect(parseDownloadReference('Import done.')).toBeNull();
  });
});

describe('time zones', () => {
  it('reads Later dates and times on the wall clock of the given zone', () => {
    const winter = resolveSchedule(
      { kind: 'scheduled', scheduledDate: '2026-12-01', scheduledTime: '08:00', timezone: 'europe/paris' },
      now,
    );
    expect(winter).toMatchObject({ ok: true, scheduledAt: new Date('2026-12-01T07:00:00Z'), timeZone: 'Europe/Paris' });
    expect(scheduledInstant('2026-07-01', '08:00', 'Europe/Paris')).toEqual(new Date('2026-07-01T06:00:00Z'));
    // 02:30 does not exist in Paris on the night clocks go forward.
    expect(scheduledInstant('2026-03-29', '02:30', 'Europe/Paris')).toBeNull();
    expect(resolveSchedule({ kind: 'immediate', timezone: 'Mars/Olympus' }, now)).toEqual({
      ok: false,
      message: 'The time zone is not known.',
    });
  });
});
