import { formatRepeatPattern, parseRepeatPattern } from './repeat-pattern.ts';
import { canonicalTimeZone, instantOf, isTimeZone } from './zoned-time.ts';

/** Import messages of docs/product.md §11.8, word for word, and the server's own where the product has none. */
export const IMPORT_MESSAGES = {
  running: 'Cannot create or edit the import. There is already an import running for this pipeline.',
  editRunning: 'Cannot edit the import. An import is already running.',
  editPending: 'Cannot edit the import. An immediate import is pending.',
  noCountries: 'Master pipeline has no country pipelines',
  noDataSource: 'No data source in pipeline',
  unexpected: 'Something unexpected happened.',
  aborted: 'Pipeline process aborted',
  allStopping: 'All pipelines are now stopping',
  cancelled: 'The current import is cancelled.',
  repeatRefused: 'The Repeat option is not offered to the role user.',
  jobNotYours: 'This job is of a kind your role cannot create: it stays as it is.',
  scheduleExists: 'Cannot create the import. This pipeline already has a scheduled job: edit or delete it first.',
  deleteRunning: 'Cannot delete the import while it runs: stop it first.',
  notMaster: 'Only a master pipeline runs country pipelines.',
  notCountry: 'Pipeline {name} is not a country pipeline of this master.',
  laterNeedsDate: 'Later needs a date and a time.',
  pastDate: 'The scheduled date is in the past.',
  badPattern: 'The repeat pattern is not valid.',
  badTimeZone: 'The time zone is not known.',
} as const;

/**
 * Whether the roles may create a job of this kind, and so replace or cancel one: the role user
 * may not create repeat jobs (docs/product.md §10.3), so a repeat job set by someone else is read-only to them.
 */
export function mayCreateJobKind(roles: readonly string[], kind: string): boolean {
  return kind !== 'repeat' || !roles.includes('user');
}

/** A log line with this prefix names an output file to download: 'Data download reference : {uploadId} {fileName}'. */
export const DOWNLOAD_REFERENCE_PREFIX = 'Data download reference : ';

/** The log line that makes the screens download an output file. */
export function downloadReference(uploadId: string, fileName: string): string {
  return `${DOWNLOAD_REFERENCE_PREFIX}${uploadId} ${fileName}`;
}

/** Reads a download reference back: the upload id and the file name, or null. */
export function parseDownloadReference(message: string): { uploadId: string; fileName: string } | null {
  if (!message.startsWith(DOWNLOAD_REFERENCE_PREFIX)) return null;
  const rest = message.slice(DOWNLOAD_REFERENCE_PREFIX.length);
  const space = rest.indexOf(' ');
  if (space <= 0) return null;
  return { uploadId: rest.slice(0, space), fileName: rest.slice(space + 1) };
}

/** 'Missing field(s) : Brand Data Kind Product Line Locale' for the fields a pipeline lacks to run. */
export function missingFieldsMessage(missing: readonly string[]): string {
  return `Missing field(s) : ${missing.join(' ')}`;
}

/** What a schedule payload asks for, once checked. */
export type ResolvedSchedule =
  | { ok: true; kind: 'immediate' | 'sequential'; scheduledAt: null; repeatPattern: ''; timeZone: string }
  | { ok: true; kind: 'scheduled'; scheduledAt: Date; repeatPattern: ''; timeZone: string }
  | { ok: true; kind: 'repeat'; scheduledAt: null; repeatPattern: string; timeZone: string }
  | { ok: false; message: string };

export interface ScheduleInput {
  kind: string;
  scheduledDate?: string | null | undefined;
  scheduledTime?: string | null | undefined;
  repeatPattern?: string | null | undefined;
  /** The time zone dates, times and repeat patterns are read in (IANA name; default UTC). */
  timezone?: string | null | undefined;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The instant a Later schedule names: a date 'YYYY-MM-DD' with a time 'HH:mm' on the wall clock of
 * `timeZone`, or a full ISO date-time in scheduledDate (which carries its own offset). Null when
 * they do not name one (or name a time a daylight-saving change skips).
 */
export function scheduledInstant(
  date: string | null | undefined,
  time: string | null | undefined,
  timeZone = 'UTC',
): Date | null {
  if (!date) return null;
  const day = DATE.exec(date);
  if (!day) {
    if (!/^\d{4}-\d{2}-\d{2}T/.test(date)) return null;
    const at = new Date(date);
    return Number.isNaN(at.getTime()) ? null : at;
  }
  const clock = time ? TIME.exec(time) : null;
  if (!clock) return null;
  const wall = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]), Number(clock[1]), Number(clock[2])));
  return wall.getUTCDate() === Number(day[3]) ? instantOf(wall, timeZone) : null;
}

/** Checks a schedule payload (docs/product.md §10.3): Later needs a future date and time, Repeat a valid pattern. */
export function resolveSchedule(input: ScheduleInput, now: Date = new Date()): ResolvedSchedule {
  if (input.timezone && !isTimeZone(input.timezone)) return { ok: false, message: IMPORT_MESSAGES.badTimeZone };
  const timeZone = input.timezone ? canonicalTimeZone(input.timezone) : 'UTC';
  switch (input.kind) {
    case 'immediate':
    case 'sequential':
      return { ok: true, kind: input.kind, scheduledAt: null, repeatPattern: '', timeZone };
    case 'scheduled': {
      const at = scheduledInstant(input.scheduledDate, input.scheduledTime, timeZone);
      if (!at) return { ok: false, message: IMPORT_MESSAGES.laterNeedsDate };
      // A minute of grace: the page offers the current five-minute step.
      if (at.getTime() < now.getTime() - 60_000) return { ok: false, message: IMPORT_MESSAGES.pastDate };
      return { ok: true, kind: 'scheduled', scheduledAt: at, repeatPattern: '', timeZone };
    }
    case 'repeat': {
      const parsed = parseRepeatPattern(input.repeatPattern ?? '');
      if (!parsed) return { ok: false, message: IMPORT_MESSAGES.badPattern };
      return { ok: true, kind: 'repeat', scheduledAt: null, repeatPattern: formatRepeatPattern(parsed), timeZone };
    }
    default:
      return { ok: false, message: IMPORT_MESSAGES.unexpected };
  }
}

/** Import states in which an import is running (and may be stopped, docs/product.md §11.2). */
export const RUNNING_STATES = ['busy', 'progress', 'sequential'] as const;

export function isRunningState(state: string): boolean {
  return (RUNNING_STATES as readonly string[]).includes(state);
}
