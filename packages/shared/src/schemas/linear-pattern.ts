import { RE2JS } from 're2js';

/** A compiled pattern: what a check needs of a RegExp. */
export interface LinearPattern {
  test(text: string): boolean;
  toString(): string;
}

/** JavaScript flags RE2 also knows; the others (u, g, y, d, v) change nothing a test needs. */
const FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/**
 * A data model's pattern run by RE2 (re2js): its time grows with the text, never exponentially as a
 * backtracking engine's can (`^(a+)+$` on 41 characters held a thread for minutes). Throws on a
 * pattern RE2 cannot run: backreferences, lookahead and lookbehind, repeats above 1000.
 */
export function linearPattern(source: string, flags = ''): LinearPattern {
  let bits = 0;
  for (const flag of flags) bits |= FLAGS[flag] ?? 0;
  const compiled = RE2JS.compile(source, bits);
  const text = `/${source}/${flags}`;
  return { test: (input: string) => compiled.test(input), toString: () => text };
}

/** Why RE2 cannot run this pattern (the engine's own words), or null when it can. */
export function linearPatternError(source: string): string | null {
  try {
    RE2JS.compile(source);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
