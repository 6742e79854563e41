// A run's logs: bounded in count and size, whatever the code writes.
import { DateCtor, ErrorCtor, freeze, toJson } from './base.ts';
import type { Log, LogEntry, Logger, LogLevel, RunOptions } from './types.d.ts';

/** A log entry's text of one value. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof ErrorCtor) return value.stack || `${value.name}: ${value.message}`;
  if (value === undefined) return 'undefined';
  try {
    return toJson(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The server's receiver of each log entry as it is written (an isolated-vm callback): its index, level, message and date. */
type LogSink = (seq: number, level: LogLevel, message: string, date: string) => void;

/** Hands an entry to the server's receiver, when the run has one; a receiver that fails never fails the run. */
function sent(sink: unknown, seq: number, entry: LogEntry): void {
  if (typeof sink !== 'function') return;
  try {
    (sink as LogSink)(seq, entry.level, entry.message, entry.date);
  } catch {
    // The server stopped listening: the answer still holds every entry.
  }
}

/** A run's logger; each entry kept is also handed to `sink` as it is written (the live test logs). */
export function createLogger(limits: RunOptions, sink?: unknown): Logger {
  const entries: LogEntry[] = [];
  let chars = 0;
  let dropped = 0;
  const add = (level: LogLevel, args: unknown[]) => {
    if (entries.length >= limits.maxLogEntries || chars >= limits.maxLogChars) {
      dropped += 1;
      return;
    }
    let message = '';
    for (let i = 0; i < args.length && message.length <= limits.maxLogEntryChars; i++) {
      message += (i ? ' ' : '') + text(args[i]);
    }
    if (message.length > limits.maxLogEntryChars) message = `${message.slice(0, limits.maxLogEntryChars)}…`;
    chars += message.length;
    const entry: LogEntry = { level, message, date: new DateCtor().toISOString() };
    entries.push(entry);
    sent(sink, entries.length - 1, entry);
  };
  const log = ((...args: unknown[]) => add('info', args)) as Log;
  log.info = (...args) => add('info', args);
  log.warn = (...args) => add('warn', args);
  log.error = (...args) => add('error', args);
  log.success = (...args) => add('success', args);
  const console = freeze({ log: log.info, info: log.info, debug: log.info, warn: log.warn, error: log.error });
  return {
    log: freeze(log),
    console,
    entries() {
      if (dropped > 0) {
        const entry: LogEntry = {
          level: 'warn',
          message: `${dropped} more log entries were dropped (at most ${limits.maxLogEntries} entries and ${limits.maxLogChars} characters per run).`,
          date: new DateCtor().toISOString(),
        };
        entries.push(entry);
        sent(sink, entries.length - 1, entry);
        dropped = 0;
      }
      return entries;
    },
  };
}
