/** Weekday names of the repeat patterns, cron order (0 = Sunday is written 'sun'). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const HOURLY_VALUES = Array.from({ length: 23 }, (_, i) => i + 1);
export const MINUTELY_VALUES = [15, 30, 45] as const;

/** A repeat pattern, parsed (docs/product.md §11.3). */
export type RepeatPattern =
  | { kind: 'hourly'; hours: number }
  | { kind: 'minutely'; minutes: number }
  | { kind: 'daily'; minute: number; hour: number }
  | { kind: 'weekly'; minute: number; hour: number; weekday: Weekday }
  | { kind: 'monthly'; minute: number; hour: number; day: number };

const int = (s: string | undefined) => (s !== undefined && /^\d{1,2}$/.test(s) ? Number(s) : Number.NaN);
const timeOk = (minute: number, hour: number) => minute >= 0 && minute <= 55 && minute % 5 === 0 && hour >= 0 && hour <= 23;

/** Parses 'H {n}', 'M {n}', 'm h * * *', 'm h * * weekday' or 'm h day * *'; null when it is none of them. */
export function parseRepeatPattern(text: string): RepeatPattern | null {
  const parts = text.trim().split(/\s+/);
  if (parts.length === 2) {
    const n = int(parts[1]);
    if (parts[0] === 'H' && n >= 1 && n <= 23) return { kind: 'hourly', hours: n };
    if (parts[0] === 'M' && (MINUTELY_VALUES as readonly number[]).includes(n)) return { kind: 'minutely', minutes: n };
    return null;
  }
  if (parts.length !== 5) return null;
  const [m, h, day, month, weekday] = parts;
  const minute = int(m);
  const hour = int(h);
  if (!timeOk(minute, hour) || month !== '*') return null;
  if (day === '*' && weekday === '*') return { kind: 'daily', minute, hour };
  if (day === '*' && weekday !== undefined && (WEEKDAYS as readonly string[]).includes(weekday)) {
    const wd = WEEKDAYS.find((w) => w === weekday);
    return wd ? { kind: 'weekly', minute, hour, weekday: wd } : null;
  }
  const d = int(day);
  if (weekday === '*' && d >= 1 && d <= 31) return { kind: 'monthly', minute, hour, day: d };
  return null;
}

/** The pattern's text, as stored and as the jobs list shows it. */
export function formatRepeatPattern(p: RepeatPattern): string {
  switch (p.kind) {
    case 'hourly':
      return `H ${p.hours}`;
    case 'minutely':
      return `M ${p.minutes}`;
    case 'daily':
      return `${p.minute} ${p.hour} * * *`;
    case 'weekly':
      return `${p.minute} ${p.hour} * * ${p.weekday}`;
    case 'monthly':
      return `${p.minute} ${p.hour} ${p.day} * *`;
  }
}

const DAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const clock = (hour: number, minute: number) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;

/** A pattern in words, shown beside its cron text: 'every Monday at 00:30', 'every 3 hours, on the hour'. */
export function describeRepeatPattern(p: RepeatPattern): string {
  switch (p.kind) {
    case 'hourly':
      return p.hours === 1 ? 'every hour, on the hour' : `every ${p.hours} hours, on the hour`;
    case 'minutely':
      return `every ${p.minutes} minutes`;
    case 'daily':
      return `every day at ${clock(p.hour, p.minute)}`;
    case 'weekly':
      return `every ${DAY_NAMES[p.weekday]} at ${clock(p.hour, p.minute)}`;
    case 'monthly':
      return `on day ${p.day} of every month at ${clock(p.hour, p.minute)}`;
  }
}

/** A weekday as the jobs list writes it: mon to sun, 'Unknown' for anything else. */
export function weekdayLabel(value: string): string {
  return (WEEKDAYS as readonly string[]).includes(value) ? value : 'Unknown';
}

/** The warning the scheduler shows for a monthly day (docs/product.md §10.3), or null. */
export function monthlyDayWarning(day: number): string | null {
  if (day === 31) return 'The import job will only run in a month where month ends with 31st.';
  if (day === 30) return 'The import job will not run in February month.';
  if (day === 29) return 'The import job will not run in February month, except leap year.';
  return null;
}

/** Time picker values: every 5 minutes from 00:00 to 23:45 (docs/product.md §11.3). */
export const TIME_STEPS: readonly string[] = Array.from({ length: 24 * 12 - 2 }, (_, i) => {
  const h = Math.floor(i / 12);
  const m = (i % 12) * 5;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
});

/** The standard cron expression (minute hour day month weekday) a pattern runs on. */
export function toCron(p: RepeatPattern): string {
  switch (p.kind) {
    case 'hourly':
      return `0 */${p.hours} * * *`;
    case 'minutely':
      return `*/${p.minutes} * * * *`;
    case 'daily':
      return `${p.minute} ${p.hour} * * *`;
    case 'weekly':
      return `${p.minute} ${p.hour} * * ${(WEEKDAYS.indexOf(p.weekday) + 1) % 7}`;
    case 'monthly':
      return `${p.minute} ${p.hour} ${p.day} * *`;
  }
}

/**
 * The first time strictly after `from` the pattern fires, in UTC minutes. A monthly day that a
 * month lacks is skipped, as the warnings say.
 */
export function nextRun(p: RepeatPattern, from: Date): Date {
  const t = new Date(from.getTime());
  t.setUTCSeconds(0, 0);
  for (let i = 0; i < 366 * 24 * 60; i++) {
    t.setUTCMinutes(t.getUTCMinutes() + 1);
    if (fires(p, t)) return new Date(t.getTime());
  }
  throw new Error('no run within a year');
}

function fires(p: RepeatPattern, t: Date): boolean {
  const minute = t.getUTCMinutes();
  const hour = t.getUTCHours();
  switch (p.kind) {
    case 'hourly':
      return minute === 0 && hour % p.hours === 0;
    case 'minutely':
      return minute % p.minutes === 0;
    case 'daily':
      return minute === p.minute && hour === p.hour;
    case 'weekly':
      return minute === p.minute && hour === p.hour && WEEKDAYS[(t.getUTCDay() + 6) % 7] === p.weekday;
    case 'monthly':
      return minute === p.minute && hour === p.hour && t.getUTCDate() === p.day;
  }
}
