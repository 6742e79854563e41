import type { ImportRecord, ScheduledJob } from '@gdb/shared/imports/import.schemas';
import { IMPORT_MESSAGES } from '@gdb/shared/imports/import-rules';
import {
  describeRepeatPattern,
  formatRepeatPattern,
  parseRepeatPattern,
  type RepeatPattern,
  type Weekday,
} from '@gdb/shared/imports/repeat-pattern';
import type { DataSource, PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { LastList } from '@gdb/shared/uploads/upload.schemas';
import { whenText } from './jobs-rules.ts';

export const STEP_TITLES = [
  'Select locale',
  'Choose your file',
  'Process your file',
  'Plan your import',
  'Import details',
] as const;
const STEP_COUNT = STEP_TITLES.length;

export function realtimeSources(p: PipelineView): DataSource[] {
  return p.dataSources.filter((s) => s.connectorType === 'real-time');
}

/** Endpoint and listener sources: published, not uploaded. */
export function publishSources(p: PipelineView): DataSource[] {
  return p.dataSources.filter((s) => s.connectorType === 'endpoint' || s.connectorType === 'listener');
}

/** The step-2 refusal for a pipeline missing brand, data kind, product line or locale. */
export function missingPropertiesMessage(p: PipelineView, missing: readonly string[]): string {
  const kinds = p.dataSources.map((s) => s.dataSubKind).join(', ');
  return `Pipeline data sources ${kinds} cannot be run because of missing properties : ${missing.join(', ')}`;
}

/** The last lists with each upload this session follows live as it is now (status, switch, imported mark). */
export function withLiveUploads(
  lists: readonly LastList[],
  live: readonly Pick<LastList['data'][number], '_id' | 'status' | 'enabled' | 'importedAt' | 'importedBy'>[],
): LastList[] {
  const now = new Map(live.map((u) => [u._id, u]));
  return lists.map((l) => ({
    dataSubKind: l.dataSubKind,
    data: l.data.map((u) => {
      const seen = now.get(u._id);
      return seen
        ? { ...u, status: seen.status, enabled: seen.enabled, importedAt: seen.importedAt, importedBy: seen.importedBy }
        : u;
    }),
  }));
}

/** The status of each source's newest upload: a live status of this session's upload wins over the last list. */
export function latestStatuses(
  lists: readonly LastList[],
  live: readonly { _id: string; dataSubKind: string; status: string; createdAt: string }[],
): Map<string, string> {
  const out = new Map<string, { status: string; at: string }>();
  for (const list of lists) {
    const first = list.data[0];
    if (first) out.set(list.dataSubKind, { status: first.status, at: first.createdAt });
  }
  for (const u of live) {
    const known = out.get(u.dataSubKind);
    if (!known || u.createdAt >= known.at) out.set(u.dataSubKind, { status: u.status, at: u.createdAt });
  }
  return new Map([...out].map(([k, v]) => [k, v.status]));
}

/** A step is ready only when the latest upload of each data source is valid (docs/product.md §9.4). */
export function sourcesReady(kinds: readonly string[], statuses: ReadonlyMap<string, string>): boolean {
  return kinds.every((k) => statuses.get(k) === 'valid');
}

/** Step 2 may go on when the pipeline can run and each upload source has a chosen file or a valid last upload. */
export function chooseStepReady(
  kinds: readonly string[],
  chosen: ReadonlySet<string>,
  statuses: ReadonlyMap<string, string>,
  missing: readonly string[],
): boolean {
  return missing.length === 0 && kinds.every((k) => chosen.has(k) || statuses.get(k) === 'valid');
}

/** Where Prev goes: from step 4 back to step 2 when files were uploaded in this session, else to step 1. */
export function previousStep(step: number, uploadedThisSession: boolean): number {
  if (step === 3) return uploadedThisSession ? 1 : 0;
  return Math.max(0, step - 1);
}

/** After the last step the index wraps to the first. */
export function nextStep(step: number): number {
  return (step + 1) % STEP_COUNT;
}

/** Why the schedule cannot be edited now (docs/product.md §10.4), or null. */
export function editingBlockedReason(imp: ImportRecord | null, job: ScheduledJob | null): string | null {
  if (!imp) return null;
  if (imp.state === 'busy' || imp.state === 'progress' || imp.state === 'sequential') return IMPORT_MESSAGES.editRunning;
  if (imp.state === 'pending' && (imp.jobKind === 'immediate' || job?.jobKind === 'immediate') && !imp.scheduledAt)
    return IMPORT_MESSAGES.editPending;
  return null;
}

export type ScheduleKind = 'immediate' | 'scheduled' | 'repeat';
export type RepeatKind = RepeatPattern['kind'];

/** The scheduler's form (Now, Later, Repeat). */
export interface ScheduleForm {
  kind: ScheduleKind;
  date: string | null;
  time: string | null;
  repeat: RepeatKind;
  hours: number | null;
  minutes: number | null;
  weekday: Weekday | null;
  day: number | null;
}

export const DEFAULT_SCHEDULE: ScheduleForm = {
  kind: 'immediate',
  date: null,
  time: null,
  repeat: 'daily',
  hours: null,
  minutes: null,
  weekday: null,
  day: null,
};

/** Repeat kinds offered by the scheduler, with their labels. */
export const REPEAT_KINDS: readonly { value: RepeatKind; label: string }[] = [
  { value: 'minutely', label: 'Every n minutes' },
  { value: 'hourly', label: 'Every n hours' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
];

function timeParts(time: string | null): { hour: number; minute: number } | null {
  const m = time ? /^(\d{2}):(\d{2})$/.exec(time) : null;
  return m ? { hour: Number(m[1]), minute: Number(m[2]) } : null;
}

/** The repeat pattern text the form names, or null while a needed field is empty (docs/product.md §10.3). */
export function repeatPatternOf(form: ScheduleForm): string | null {
  const t = timeParts(form.time);
  let p: RepeatPattern | null = null;
  switch (form.repeat) {
    case 'hourly':
      p = form.hours ? { kind: 'hourly', hours: form.hours } : null;
      break;
    case 'minutely':
      p = form.minutes ? { kind: 'minutely', minutes: form.minutes } : null;
      break;
    case 'daily':
      p = t ? { kind: 'daily', ...t } : null;
      break;
    case 'weekly':
      p = t && form.weekday ? { kind: 'weekly', ...t, weekday: form.weekday } : null;
      break;
    case 'monthly':
      p = t && form.day ? { kind: 'monthly', ...t, day: form.day } : null;
      break;
  }
  if (!p) return null;
  const text = formatRepeatPattern(p);
  return parseRepeatPattern(text) ? text : null;
}

/** The form an existing job's repeat pattern fills in. */
function formOfPattern(text: string): Partial<ScheduleForm> {
  const p = parseRepeatPattern(text);
  if (!p) return {};
  const time = (h: number, m: number) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  switch (p.kind) {
    case 'hourly':
      return { repeat: 'hourly', hours: p.hours };
    case 'minutely':
      return { repeat: 'minutely', minutes: p.minutes };
    case 'daily':
      return { repeat: 'daily', time: time(p.hour, p.minute) };
    case 'weekly':
      return { repeat: 'weekly', time: time(p.hour, p.minute), weekday: p.weekday };
    case 'monthly':
      return { repeat: 'monthly', time: time(p.hour, p.minute), day: p.day };
  }
}

/** Whether the form names a schedule the role may create: Later needs a future date and time, Repeat a full pattern. */
export function scheduleValid(form: ScheduleForm, roles: readonly string[], now: Date = new Date()): boolean {
  switch (form.kind) {
    case 'immediate':
      return true;
    case 'scheduled': {
      const t = timeParts(form.time);
      if (!form.date || !t) return false;
      const [y, mo, d] = form.date.split('-').map(Number);
      if (!y || !mo || !d) return false;
      return new Date(y, mo - 1, d, t.hour, t.minute).getTime() >= now.getTime() - 60_000;
    }
    case 'repeat':
      return offersRepeat(roles) && repeatPatternOf(form) !== null;
  }
}

/** The Repeat option is not offered to a user holding the role user. */
export function offersRepeat(roles: readonly string[]): boolean {
  return !roles.includes('user');
}

/** The schedule part of POST /imports and POST /imports/job, read in the browser's time zone. */
export function schedulePayload(form: ScheduleForm, timezone: string) {
  return {
    kind: form.kind,
    scheduledDate: form.kind === 'scheduled' ? form.date : null,
    scheduledTime: form.kind === 'scheduled' ? form.time : null,
    repeatPattern: form.kind === 'repeat' ? (repeatPatternOf(form) ?? '') : '',
    restartOnError: false,
    listPipelines: [],
    timezone,
  };
}

/** The form an existing job fills in. */
export function formOfJob(job: ScheduledJob): ScheduleForm {
  const d = job.importData;
  if (d.kind === 'repeat') return { ...DEFAULT_SCHEDULE, kind: 'repeat', ...formOfPattern(d.repeatPattern) };
  if (d.kind === 'scheduled') return { ...DEFAULT_SCHEDULE, kind: 'scheduled', date: d.scheduledDate, time: d.scheduledTime };
  return DEFAULT_SCHEDULE;
}

/** When the form's schedule runs, in words: '' for Now, ' on {date} at {time}' for Later, the pattern in words and as text for Repeat. */
function scheduleWords(form: ScheduleForm): string {
  if (form.kind === 'scheduled' && form.date && form.time) return ` on ${form.date} at ${form.time}`;
  if (form.kind !== 'repeat') return '';
  const text = repeatPatternOf(form);
  const p = text ? parseRepeatPattern(text) : null;
  return p && text ? ` ${describeRepeatPattern(p)} (${text})` : '';
}

/**
 * The question asked before a job is created or edited: the spec's words, then when it runs, and,
 * when it changes the pipeline's scheduled job, that it does.
 */
export function runQuestion(name: string, form: ScheduleForm = DEFAULT_SCHEDULE, replaces: ScheduledJob | null = null): string {
  const base = `Do you want to run the pipeline : ${name}${scheduleWords(form)}`;
  return replaces && replaces.jobKind !== 'immediate'
    ? `${base}, in place of its ${jobKindWords(replaces)} (${whenText(replaces)})`
    : base;
}

/** How the scheduler and its buttons name a job: 'scheduled job' (Later) or 'repeat job'. */
export const jobKindWords = (job: Pick<ScheduledJob, 'jobKind'>) => (job.jobKind === 'repeat' ? 'repeat job' : 'scheduled job');
export const NOW_QUESTION = 'If you select now and execute it will delete the last import, Do you want continue?';
export const CANCEL_QUESTION = 'Do you want to cancel the import?';

/**
 * The uploads a run of the pipeline takes from one data source: every enabled valid upload of its
 * last list (the server merges them all); the lists carry this session's live statuses already
 * (`withLiveUploads`).
 */
export function runUploads<U extends LastList['data'][number]>(
  kind: string,
  lists: readonly { dataSubKind: string; data: readonly U[] }[],
): U[] {
  const data = lists.find((l) => l.dataSubKind === kind)?.data ?? [];
  return data.filter((u) => u.enabled && u.status === 'valid');
}

export interface NextState {
  step: number;
  pipeline: PipelineView | undefined;
  missing: readonly string[];
  kinds: readonly string[];
  chosen: ReadonlySet<string>;
  statuses: ReadonlyMap<string, string>;
  blocked: string | null;
  jobLoaded: boolean;
  schedule: ScheduleForm;
  roles: readonly string[];
}

/** What a schedule lacks before Next may run it, or null. */
function scheduleLack(form: ScheduleForm, roles: readonly string[]): string | null {
  if (scheduleValid(form, roles)) return null;
  if (form.kind === 'scheduled') return 'Choose a date and a time to come for Later.';
  if (form.kind === 'repeat' && !offersRepeat(roles)) return 'Choose Now or Later: Repeat is not offered to your role.';
  return 'Complete the repeat pattern.';
}

/** Sources whose newest upload is not valid, said by their state: invalid, or still being checked. */
function sourcesLack(kinds: readonly string[], statuses: ReadonlyMap<string, string>): string | null {
  const invalid = kinds.filter((k) => statuses.get(k) === 'invalid');
  if (invalid.length) return `The newest upload of ${invalid.join(', ')} is invalid: upload another file.`;
  const waiting = kinds.filter((k) => statuses.get(k) !== 'valid');
  if (waiting.length) return `Waiting for the check of ${waiting.join(', ')}.`;
  return null;
}

/** Why Next step is disabled, in the user's words, or null when it may go on. */
export function nextBlockedReason(s: NextState): string | null {
  if (s.step === 4) return null;
  if (!s.pipeline) return 'Choose a pipeline first.';
  if (s.step === 0) return null;
  if (s.missing.length) return `The pipeline cannot run: missing ${s.missing.join(', ')}.`;
  if (s.step === 1) {
    const lacking = s.kinds.filter((k) => !s.chosen.has(k) && s.statuses.get(k) !== 'valid');
    return lacking.length ? `Choose a file for ${lacking.join(', ')}: its newest upload is not valid.` : null;
  }
  if (s.step === 2) return sourcesLack(s.kinds, s.statuses);
  if (s.blocked) return `The import cannot be planned now. ${s.blocked}`;
  if (!s.jobLoaded) return "Loading the pipeline's current job.";
  return scheduleLack(s.schedule, s.roles) ?? sourcesLack(s.kinds, s.statuses);
}
