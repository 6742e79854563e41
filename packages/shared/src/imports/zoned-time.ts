import { nextRun, type RepeatPattern } from './repeat-pattern.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for a time zone name this runtime knows (IANA, e.g. 'Europe/Paris', or 'UTC'). */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The canonical name of a known time zone ('europe/paris' → 'Europe/Paris'). */
export function canonicalTimeZone(name: string): string {
  return formatter(name).resolvedOptions().timeZone;
}

/** The wall-clock time of an instant in a time zone, as a Date whose UTC fields hold it. */
export function wallClock(at: Date, timeZone: string): Date {
  if (timeZone === 'UTC') return new Date(at.getTime());
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return new Date(wall + at.getUTCMilliseconds());
}

/**
 * The instant a wall-clock time (UTC fields of `wall`) names in a time zone; null when that time
 * does not exist there (skipped by a daylight-saving change).
 */
export function instantOf(wall: Date, timeZone: string): Date | null {
  if (timeZone === 'UTC') return new Date(wall.getTime());
  // Two passes settle the offset around a change; the check catches times that do not exist.
  let guess = wall.getTime() - (wallClock(wall, timeZone).getTime() - wall.getTime());
  guess = wall.getTime() - (wallClock(new Date(guess), timeZone).getTime() - guess);
  const at = new Date(guess);
  return wallClock(at, timeZone).getTime() === wall.getTime() ? at : null;
}

/**
 * The first time strictly after `from` a repeat pattern fires on the wall clock of a time zone.
 * A wall time a daylight-saving change skips is skipped too.
 */
export function nextRunIn(p: RepeatPattern, from: Date, timeZone: string): Date {
  let wall = wallClock(from, timeZone);
  for (let i = 0; i < 1000; i++) {
    wall = nextRun(p, wall);
    const at = instantOf(wall, timeZone);
    if (at && at.getTime() > from.getTime()) return at;
  }
  throw new Error('no run found');
}
