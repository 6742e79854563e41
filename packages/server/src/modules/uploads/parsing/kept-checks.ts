/** Data models whose compiled checks a parse worker keeps, the least recently used dropped first. */
const KEPT_MODELS = 32;

/** Compiled checks by data model key, then by kind (the row check, the column checks). */
const kept = new Map<string, Map<string, unknown>>();
/** Checks compiled in this thread so far, those taken from `kept` left out. */
let compiled = 0;

/**
 * A data model's check compiled once per version in this thread: kept by `key` (the data model's
 * id and save counter, so a saved draft compiles anew), for the next files a worker checks against
 * the same version; compiled for this file alone without a key. Compiling a large model takes
 * longer than checking a small file against it.
 */
export function keptCheck<T>(key: string | undefined, kind: string, compile: () => T): T {
  if (key === undefined) {
    compiled++;
    return compile();
  }
  const checks = kept.get(key) ?? new Map<string, unknown>();
  kept.delete(key);
  kept.set(key, checks);
  if (kept.size > KEPT_MODELS) kept.delete(kept.keys().next().value ?? '');
  if (checks.has(kind)) return checks.get(kind) as T;
  compiled++;
  const check = compile();
  checks.set(kind, check);
  return check;
}

/** Checks compiled in this thread so far (taken from those kept left out). */
export function checksCompiled(): number {
  return compiled;
}
