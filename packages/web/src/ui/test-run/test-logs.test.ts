import { describe, expect, it } from 'vitest';
import { mergeLogs, newRunId } from './test-logs.ts';

const DATE = '2026-12-06T10:00:00.000Z';
const live = (seq: number, message: string) => ({
  _id: `r:${seq}`,
  runId: 'r',
  userId: 'u',
  seq,
  level: 'info' as const,
  message,
  date: DATE,
});
const entry = (message: string) => ({ level: 'info' as const, message, date: DATE });

describe('mergeLogs', () => {
  it('adds to the streamed lines only what the answer holds that did not stream, each line once, in order', () => {
    const merged = mergeLogs([live(1, 'b'), live(0, 'a')], [entry('a'), entry('b'), entry('c')]);
    expect(merged.map((l) => [l.seq, l.message])).toEqual([
      [0, 'a'],
      [1, 'b'],
      [2, 'c'],
    ]);
  });

  it('fills a line the stream missed, and reads a line the channel cut whole from the answer', () => {
    const merged = mergeLogs([live(0, 'a'), live(2, 'long…')], [entry('a'), entry('b'), entry('long line')]);
    expect(merged.map((l) => l.message)).toEqual(['a', 'b', 'long line']);
  });

  it('shows the streamed lines alone while there is no answer', () => {
    expect(mergeLogs([live(0, 'a')], null).map((l) => l.message)).toEqual(['a']);
  });
});

describe('newRunId', () => {
  it('makes version 4 UUIDs, with or without crypto.randomUUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newRunId()).toMatch(uuid);
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { configurable: true, value: undefined });
    try {
      expect(newRunId()).toMatch(uuid);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { configurable: true, value: original });
    }
  });
});
