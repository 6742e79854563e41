import type { ImportRecord, ListAllQuery } from '@gdb/shared/imports/import.schemas';
import { LOGBOOK_PAGE_SIZE } from '@gdb/shared/imports/import.schemas';
import { isRunningState } from '@gdb/shared/imports/import-rules';
import { formatLogDate } from '../../ui/LogView.tsx';

/** The two Success switches (True, False). */
export interface SuccessSwitches {
  true: boolean;
  false: boolean;
}

export const DEFAULT_SUCCESS: SuccessSwitches = { true: true, false: true };

/** Sets one switch; the two cannot both be off: turning the last one off turns the other on (docs/product.md §12.3). */
export function toggleSuccess(current: SuccessSwitches, which: keyof SuccessSwitches, on: boolean): SuccessSwitches {
  const next = { ...current, [which]: on };
  if (!next.true && !next.false) return which === 'true' ? { true: false, false: true } : { true: true, false: false };
  return next;
}

/** With one switch on, the success filter has its value; with both on, there is none. */
export function successFilter(s: SuccessSwitches): boolean | undefined {
  if (s.true && s.false) return undefined;
  return s.true;
}

export interface LogbookFilters {
  brand: string | null;
  locale: string | null;
  productLine: string | null;
  datakind: string | null;
  user: string | null;
  /** The Time switch: off is past only (default), on is future only. */
  future: boolean;
  success: SuccessSwitches;
}

export const DEFAULT_FILTERS: LogbookFilters = {
  brand: null,
  locale: null,
  productLine: null,
  datakind: null,
  user: null,
  future: false,
  success: DEFAULT_SUCCESS,
};

/** The GET /imports/listAll query of a page (zero-based) under these filters. */
export function listAllQuery(filters: LogbookFilters, page: number): Record<string, string | number | boolean> {
  const query: Partial<Record<keyof ListAllQuery, string | number | boolean>> = {
    pageNumber: page,
    nbItemsPerPage: LOGBOOK_PAGE_SIZE,
    time: filters.future ? 'future' : 'past',
  };
  for (const key of ['brand', 'locale', 'productLine', 'datakind', 'user'] as const) {
    const value = filters[key];
    if (value) query[key] = value;
  }
  const success = successFilter(filters.success);
  if (success !== undefined) query.success = success;
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(query)) if (v !== undefined) out[k] = v;
  return out;
}

/** 'Details for pipeline : name started at : date', or 'scheduled at', or just 'Details'. */
export function detailsTitle(record: Pick<ImportRecord, 'pipelineName' | 'startedAt' | 'scheduledAt'> | null): string {
  if (!record) return 'Details';
  const name = record.pipelineName ?? '';
  if (record.startedAt) return `Details for pipeline : ${name} started at : ${formatLogDate(record.startedAt)}`;
  if (record.scheduledAt) return `Details for pipeline : ${name} scheduled at : ${formatLogDate(record.scheduledAt)}`;
  return 'Details';
}

/** Busy, progress and sequential imports may be stopped. */
export const stoppable = (state: string) => isRunningState(state);

/** A date cell: the local date, or a dash. */
export const dateCell = (iso: string | null) => (iso ? formatLogDate(iso) : '-');

/** The Success column in words beside the spec's true/false: Succeeded, Failed, Running or Pending. */
export function successWords(r: Pick<ImportRecord, 'state' | 'success'>): string {
  if (r.success) return 'Succeeded';
  if (r.state === 'pending') return 'Pending';
  if (isRunningState(r.state)) return 'Running';
  return 'Failed';
}
