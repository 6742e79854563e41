import type { RunLogEntry } from '@gdb/shared/components/run.schemas';
import { type LiveTestLog, liveTestLogSchema } from '@gdb/shared/live/live.schemas';
import type { LiveDoc } from '../../ground/live/codec.ts';

/** A line of the Logs region: a run's log entry and its index among the run's logs. */
export type TestLogLine = RunLogEntry & { seq: number };

/** A live line as the channel sent it; undefined when it is not one. */
export function parseTestLog(doc: LiveDoc): LiveTestLog | undefined {
  const r = liveTestLogSchema.safeParse(doc);
  return r.success ? r.data : undefined;
}

/**
 * The lines of a run: those streamed while it ran, then what its answer holds that did not stream
 * (each entry once, by its index: the answer's entry i is the line streamed as seq i; a line the
 * channel had to cut reads whole from the answer), in the run's order.
 */
export function mergeLogs(streamed: readonly LiveTestLog[], answer: readonly RunLogEntry[] | null): TestLogLine[] {
  const bySeq = new Map<number, TestLogLine>();
  for (const { seq, level, message, date } of streamed) bySeq.set(seq, { seq, level, message, date });
  for (const [seq, entry] of (answer ?? []).entries()) bySeq.set(seq, { ...entry, seq });
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** A line as the Logs region shows it: date, level and message. */
export const logLineText = (l: RunLogEntry) => `${l.date} [${l.level}] ${l.message}`;

/** A new run's id: a random UUID (version 4), also where `crypto.randomUUID` is missing (plain HTTP). */
export function newRunId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
