import { describe, expect, it } from 'vitest';
import { textRows } from './textRows.ts';

describe('textRows', () => {
  it('answers the lines of the text, at least min and at most max', () => {
    expect(textRows('', 2, 12)).toBe(2);
    expect(textRows('a\nb\nc', 2, 12)).toBe(3);
    expect(textRows('a\r\nb\r\nc\r\nd', 2, 12)).toBe(4);
    expect(textRows('\n'.repeat(100), 4, 24)).toBe(24);
  });
});
