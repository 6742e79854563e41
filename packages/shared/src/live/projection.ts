import type { LiveProjection } from './live.schemas.ts';

/** How a projection selects fields: all of them, only those included, or all but those excluded. */
export type ProjectionMode = 'all' | 'include' | 'exclude' | 'mixed';

const included = (v: LiveProjection[string]) => v === 1 || v === true;

/** The kind of a projection; 'mixed' (inclusion and exclusion together) is refused by the server. */
export function projectionMode(projection: LiveProjection | undefined): ProjectionMode {
  const values = Object.entries(projection ?? {})
    .filter(([k]) => k !== '_id')
    .map(([, v]) => v);
  if (values.length === 0) return 'all';
  const inc = values.filter(included).length;
  if (inc === values.length) return 'include';
  return inc === 0 ? 'exclude' : 'mixed';
}

/** The document with only the fields the projection selects; `_id` always stays. */
export function applyProjection<T extends Readonly<Record<string, unknown>>>(
  doc: T,
  projection: LiveProjection | undefined,
): Partial<T> {
  const mode = projectionMode(projection);
  if (mode === 'all' || !projection) return doc;
  const out: Record<string, unknown> = {};
  if (mode === 'include') {
    out._id = doc._id;
    for (const [k, v] of Object.entries(projection)) if (included(v) && k in doc) out[k] = doc[k];
  } else {
    for (const [k, v] of Object.entries(doc))
      if (k === '_id' || projection[k] === undefined || included(projection[k])) out[k] = v;
  }
  return out as Partial<T>;
}

/**
 * One projection that serves every listed one: included fields only, or excluded fields only.
 * No projection among them selects everything; inclusions alone merge into their union;
 * otherwise a field is excluded when every exclusion names it and no inclusion does — a field
 * named in both cancels out.
 */
export function mergeProjections(list: readonly (LiveProjection | undefined)[]): LiveProjection {
  const modes = list.map(projectionMode);
  if (list.length === 0 || modes.includes('all')) return {};
  const fieldsOf = (p: LiveProjection | undefined, inc: boolean) =>
    Object.entries(p ?? {})
      .filter(([k, v]) => k !== '_id' && included(v) === inc)
      .map(([k]) => k);
  const inclusions = new Set(list.flatMap((p) => fieldsOf(p, true)));
  if (modes.every((m) => m === 'include')) return Object.fromEntries([...inclusions].sort().map((k) => [k, 1]));
  const exclusionLists = list.filter((_, i) => modes[i] !== 'include').map((p) => new Set(fieldsOf(p, false)));
  const [first, ...rest] = exclusionLists;
  const excluded = [...(first ?? [])].filter((k) => rest.every((s) => s.has(k)) && !inclusions.has(k));
  return Object.fromEntries(excluded.sort().map((k) => [k, 0]));
}
