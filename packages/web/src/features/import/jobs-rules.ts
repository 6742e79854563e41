import type { ScheduledJob } from '@gdb/shared/imports/import.schemas';
import { describeRepeatPattern, parseRepeatPattern, weekdayLabel } from '@gdb/shared/imports/repeat-pattern';
import { formatLogDate } from '../../ui/LogView.tsx';

/**
 * The When column: a repeat pattern as cron text ('m h * * *', 'm h * * weekday', 'm h day * *',
 * weekdays mon to sun, 'Unknown' for others; 'H n' and 'M n' as they are), or a one-time date.
 */
export function whenText(job: Pick<ScheduledJob, 'jobKind' | 'repeatPattern' | 'importData' | 'nextImport'>): string {
  if (job.jobKind === 'repeat') {
    const parts = job.repeatPattern.trim().split(/\s+/);
    if (parts.length === 5) {
      const [m, h, day, month, weekday] = parts;
      return [m, h, day, month, weekday === '*' || weekday === undefined ? '*' : weekdayLabel(weekday)].join(' ');
    }
    return job.repeatPattern;
  }
  const d = job.importData;
  if (d.scheduledDate && d.scheduledTime) return `${d.scheduledDate} ${d.scheduledTime}`;
  return job.nextImport ? formatLogDate(job.nextImport.scheduledAt) : job.jobKind;
}

/** A repeat job's pattern in words ('every Monday at 00:30'), shown beside its cron text; null for other jobs. */
export function whenWords(job: Pick<ScheduledJob, 'jobKind' | 'repeatPattern'>): string | null {
  if (job.jobKind !== 'repeat') return null;
  const p = parseRepeatPattern(job.repeatPattern);
  return p ? describeRepeatPattern(p) : null;
}

/** A run date, or 'n/a' when there is none. */
export const runText = (iso: string | null | undefined) => (iso ? formatLogDate(iso) : 'n/a');

/** Repeating jobs then one-time jobs, kept when the search matches the name, the When text or the scheduler, ignoring case. */
export function searchJobs(jobs: readonly ScheduledJob[], search: string): ScheduledJob[] {
  const q = search.trim().toLowerCase();
  if (!q) return [...jobs];
  return jobs.filter((j) =>
    [j.pipeline?.name ?? '', whenText(j), j.scheduledBy?.userName ?? ''].some((t) => t.toLowerCase().includes(q)),
  );
}
