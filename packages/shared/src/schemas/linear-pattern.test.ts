import { describe, expect, it } from 'vitest';
import { linearPattern, linearPatternError } from './linear-pattern.ts';
import { optionError } from './schema-rules.ts';

describe('patterns run in linear time', () => {
  it('answers ^(a+)+$ on 41 characters at once, where a backtracking engine takes minutes', () => {
    const started = performance.now();
    expect(linearPattern('^(a+)+$').test(`${'a'.repeat(40)}!`)).toBe(false);
    expect(linearPattern('^(a+)+$').test('a'.repeat(41))).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('tests like RegExp.test: anywhere in the text, with the i, m and s flags', () => {
    expect(linearPattern('[0-9]{3}').test('ab123')).toBe(true);
    expect(linearPattern('^AB$', 'i').test('ab')).toBe(true);
    expect(linearPattern('^b$', 'm').test('a\nb')).toBe(true);
    expect(linearPattern('a.b', 's').test('a\nb')).toBe(true);
    expect(linearPattern('^\\p{L}+$', 'u').test('Éclair')).toBe(true);
    expect(String(linearPattern('^a$', 'u'))).toBe('/^a$/u');
  });

  it('names what RE2 cannot run: backreferences and lookaround', () => {
    expect(linearPatternError('^[A-Z]{2}[0-9]{3}$')).toBeNull();
    expect(linearPatternError('(a)\\1')).toMatch(/invalid escape sequence/);
    expect(linearPatternError('(?=a)b')).toMatch(/unsupported Perl syntax/);
    expect(() => linearPattern('(?<!a)b')).toThrow();
  });

  it('the editor flags a pattern it cannot run', () => {
    const field = { key: 'pattern', label: 'Pattern', input: 'text' } as const;
    expect(optionError(field, '^(a)\\1$')).toBe(
      'Pattern cannot be checked in linear time: backreferences, lookahead and lookbehind are not supported',
    );
    expect(optionError(field, '^(a+)+$')).toBeNull();
  });
});
