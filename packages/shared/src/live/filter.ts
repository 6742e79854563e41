import type { LiveFilter } from './live.schemas.ts';

/** A filter with every value as a sorted list without repeats. */
export type NormalFilter = Record<string, string[]>;

/** Turns single values into lists, sorted and without repeats, so equal filters compare equal. */
export function normalizeFilter(filter: LiveFilter | undefined): NormalFilter {
  const out: NormalFilter = {};
  for (const key of Object.keys(filter ?? {}).sort()) {
    const value = filter?.[key];
    if (value === undefined) continue;
    out[key] = [...new Set(Array.isArray(value) ? value : [value])].sort();
  }
  return out;
}

/** True when the filter selects every document. */
export function isEmptyFilter(filter: LiveFilter | NormalFilter | undefined): boolean {
  return !filter || Object.keys(filter).length === 0;
}

/** One text per distinct filter: identical filters share it. */
export function filterKey(filter: LiveFilter | undefined): string {
  return JSON.stringify(normalizeFilter(filter));
}

/** True when every key of the filter holds one of its values in the document. */
export function matchesFilter(filter: LiveFilter | NormalFilter | undefined, doc: Readonly<Record<string, unknown>>): boolean {
  for (const [key, value] of Object.entries(filter ?? {})) {
    const field = doc[key];
    if (typeof field !== 'string') return false;
    if (Array.isArray(value) ? !value.includes(field) : value !== field) return false;
  }
  return true;
}
