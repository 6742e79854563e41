import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTERS,
  DEFAULT_SUCCESS,
  dateCell,
  detailsTitle,
  listAllQuery,
  stoppable,
  successFilter,
  successWords,
  toggleSuccess,
} from './logbook-rules.ts';

describe('Success switches', () => {
  it('start both on, which sends no success filter', () => {
    expect(DEFAULT_SUCCESS).toEqual({ true: true, false: true });
    expect(successFilter(DEFAULT_SUCCESS)).toBeUndefined();
  });

  it('send the value of the one switch left on', () => {
    const onlyTrue = toggleSuccess(DEFAULT_SUCCESS, 'false', false);
    expect(onlyTrue).toEqual({ true: true, false: false });
    expect(successFilter(onlyTrue)).toBe(true);
    const onlyFalse = toggleSuccess(DEFAULT_SUCCESS, 'true', false);
    expect(successFilter(onlyFalse)).toBe(false);
  });

  it('cannot both be off: turning the last one off turns the other on', () => {
    const onlyTrue = { true: true, false: false };
    expect(toggleSuccess(onlyTrue, 'true', false)).toEqual({ true: false, false: true });
    const onlyFalse = { true: false, false: true };
    expect(toggleSuccess(onlyFalse, 'false', false)).toEqual({ true: true, false: false });
    expect(toggleSuccess(onlyFalse, 'true', true)).toEqual({ true: true, false: true });
  });
});

describe('logbook query', () => {
  it('asks the first page of 9 past imports by default, with no other filter', () => {
    expect(listAllQuery(DEFAULT_FILTERS, 0)).toEqual({ pageNumber: 0, nbItemsPerPage: 9, time: 'past' });
  });

  it('sends the chosen filters, the Time switch and one success value', () => {
    expect(
      listAllQuery({ ...DEFAULT_FILTERS, brand: 'b', user: 'u', future: true, success: { true: false, false: true } }, 3),
    ).toEqual({ pageNumber: 3, nbItemsPerPage: 9, time: 'future', brand: 'b', user: 'u', success: false });
  });
});

describe('details and cells', () => {
  it('titles the details panel by start, else schedule, else Details', () => {
    const started = new Date(2026, 10, 22, 9, 5, 7).toISOString();
    expect(detailsTitle({ pipelineName: 'P1', startedAt: started, scheduledAt: null })).toBe(
      'Details for pipeline : P1 started at : 2026-11-22 09:05:07',
    );
    expect(detailsTitle({ pipelineName: 'P1', startedAt: null, scheduledAt: started })).toBe(
      'Details for pipeline : P1 scheduled at : 2026-11-22 09:05:07',
    );
    expect(detailsTitle({ pipelineName: 'P1', startedAt: null, scheduledAt: null })).toBe('Details');
    expect(detailsTitle(null)).toBe('Details');
  });

  it('offers Stop for busy, progress and sequential only, and a dash for no date', () => {
    expect(['busy', 'progress', 'sequential', 'pending', 'done', 'failed', 'aborted'].filter(stoppable)).toEqual([
      'busy',
      'progress',
      'sequential',
    ]);
    expect(dateCell(null)).toBe('-');
  });
});

describe('successWords', () => {
  it('says the outcome in words: Succeeded, Failed, Running or Pending', () => {
    expect(successWords({ state: 'done', success: true })).toBe('Succeeded');
    expect(successWords({ state: 'failed', success: false })).toBe('Failed');
    expect(successWords({ state: 'progress', success: false })).toBe('Running');
    expect(successWords({ state: 'pending', success: false })).toBe('Pending');
  });
});
