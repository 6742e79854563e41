import { linearPatternError } from '@gdb/shared/schemas/linear-pattern';
import { LINEAR_PATTERN_MESSAGE } from '@gdb/shared/schemas/schema-rules';
import type { Config } from '../../platform/config.ts';

/** What a data model may hold on save (settings of docs/operations.md, "Data model bounds"). */
export type ModelBounds = Config['schemaBounds'];

/** A bound a data model breaks: where (dotted, from `jsonSchema`) and a message naming the setting. */
export interface BoundIssue {
  path: string;
  message: string;
}

/** The messages of a data model refused on save; each names the setting that bounds it. */
const BOUND_MESSAGES = {
  size: (kib: number, max: number) => `The data model takes ${kib} KiB, more than SCHEMA_MAX_KIB allows (${max} KiB)`,
  depth: (path: string, max: number) => `${path}: the data model nests deeper than SCHEMA_MAX_DEPTH allows (${max} levels)`,
  enumLength: (path: string, count: number, max: number) =>
    `${path}: the enum lists ${count} values, more than SCHEMA_MAX_ENUM_VALUES allows (${max})`,
  expanded: (max: number) =>
    `The data model holds more than SCHEMA_MAX_EXPANDED_SCHEMAS allows (${max} schemas) once each $ref is replaced by the schema it names`,
  pattern: (path: string, detail: string) => `${path}: ${LINEAR_PATTERN_MESSAGE} (${detail})`,
} as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first value nested deeper than `max`, an enum longer than allowed, or a pattern RE2 cannot run, depth first. */
function nodeIssue(root: Json, bounds: ModelBounds): BoundIssue | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: 'jsonSchema', depth: 1 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as (typeof stack)[number];
    if (typeof value !== 'object' || value === null) continue;
    if (depth > bounds.maxDepth) return { path, message: BOUND_MESSAGES.depth(path, bounds.maxDepth) };
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const issue = Array.isArray(value) ? null : ownIssue(value as Json, path, bounds);
    if (issue) return issue;
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      stack.push({ value: child, path: `${path}.${key}`, depth: depth + 1 });
    }
  }
  return null;
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** What one object of the model breaks by itself: its enum's length, its pattern, its patternProperties' names. */
function ownIssue(s: Json, path: string, bounds: ModelBounds): BoundIssue | null {
  if (Array.isArray(s.enum) && s.enum.length > bounds.maxEnumValues) {
    const at = `${path}.enum`;
    return { path: at, message: BOUND_MESSAGES.enumLength(at, s.enum.length, bounds.maxEnumValues) };
  }
  const patterns: [string, string][] = typeof s.pattern === 'string' ? [[`${path}.pattern`, s.pattern]] : [];
  if (isObject(s.patternProperties)) {
    for (const name of Object.keys(s.patternProperties)) patterns.push([`${path}.patternProperties.${name}`, name]);
  }
  for (const [at, source] of patterns) {
    // One that is no regular expression at all is the node rules' to refuse, in their words.
    if (!isRegExp(source)) continue;
    const detail = linearPatternError(source);
    if (detail !== null) return { path: at, message: BOUND_MESSAGES.pattern(at, detail) };
  }
  return null;
}

/** The value a local `$ref` (`#/definitions/x`, any JSON pointer into the model) names, if any. */
function resolveLocal(root: Json, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Json)[key];
  }
  return at;
}

/**
 * How many schemas (objects) the model holds once every local `$ref` is replaced by what it names,
 * counted up to `cap` + 1: what a validator compiler that inlines references builds. A definition
 * used 400 times counts 400 times; a recursive reference counts once (it compiles to a call).
 */
function expandedSize(root: Json, cap: number): number {
  const memo = new Map<object, number>();
  const active = new Set<object>();
  const count = (value: unknown): number => {
    if (typeof value !== 'object' || value === null) return 0;
    const known = memo.get(value);
    if (known !== undefined) return known;
    if (active.has(value)) return 0;
    active.add(value);
    let total = Array.isArray(value) ? 0 : 1;
    const ref = Array.isArray(value) ? undefined : (value as Json).$ref;
    if (typeof ref === 'string') total += count(resolveLocal(root, ref));
    for (const child of Object.values(value)) {
      if (total > cap) break;
      total += count(child);
    }
    active.delete(value);
    const capped = Math.min(total, cap + 1);
    memo.set(value, capped);
    return capped;
  };
  return count(root);
}

/**
 * The first bound of `bounds` a data model's JSON schema breaks, or null: its size as JSON text,
 * its depth, an enum's length, a pattern the linear-time engine cannot run, and its size once its
 * local references are expanded (a reference to another data model counts once: that model is
 * bounded on its own save, and the compile's limits hold what they make together). Checked on save, before anything compiles it.
 */
export function modelBoundsIssue(jsonSchema: Json, bounds: ModelBounds): BoundIssue | null {
  // The most precise first: the walk names where; the body limit already bounds its work.
  const issue = nodeIssue(jsonSchema, bounds);
  if (issue) return issue;
  const bytes = Buffer.byteLength(JSON.stringify(jsonSchema));
  if (bytes > bounds.maxBytes) {
    return { path: 'jsonSchema', message: BOUND_MESSAGES.size(Math.ceil(bytes / 1024), bounds.maxBytes / 1024) };
  }
  if (expandedSize(jsonSchema, bounds.maxExpandedSchemas) > bounds.maxExpandedSchemas) {
    return { path: 'jsonSchema', message: BOUND_MESSAGES.expanded(bounds.maxExpandedSchemas) };
  }
  return null;
}
