import { describe, expect, it } from 'vitest';
import { splitCsv } from './split-csv.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);

describe('splitCsv', () => {
  it('cuts on line feeds into slices of whole records, each with the header line', () => {
    const text = `a,b\n${Array.from({ length: 10 }, (_, i) => `${i},x${i}\n`).join('')}`;
    const slices = splitCsv(enc(text), 2)?.map(dec) ?? [];
    expect(slices).toHaveLength(2);
    expect(slices.every((s) => s.startsWith('a,b\n') && s.endsWith('\n'))).toBe(true);
    // The records, in order, each once.
    expect(slices.map((s) => s.slice(4)).join('')).toBe(text.slice(4));
  });

  it('never cuts inside quoted text, even where a quoted field holds line feeds', () => {
    const record = '"one\ntwo\nthree","say ""hi""\n"\n';
    const text = `a,b\n${record.repeat(7)}`;
    for (const parts of [2, 3, 4]) {
      const slices = splitCsv(enc(text), parts)?.map(dec) ?? [];
      expect(slices.length).toBeGreaterThan(1);
      for (const s of slices)
        expect(
          s
            .slice(4)
            .split(record)
            .every((rest) => rest === ''),
        ).toBe(true);
    }
  });

  it('keeps multi-byte characters whole and the byte order mark in the first slice', () => {
    const text = `\uFEFFnom,ville\n${'Zoë,Besançon — 東京\n'.repeat(6)}`;
    const slices = splitCsv(enc(text), 2)?.map(dec) ?? [];
    expect(slices).toHaveLength(2);
    expect(slices.join('')).toContain('Zoë,Besançon — 東京');
    expect(slices[1]?.startsWith('\uFEFFnom,ville\n')).toBe(true);
    expect(slices.every((s) => !s.includes('\uFFFD'))).toBe(true);
  });

  it('answers null when there is nothing to cut: no header line, one record, a quote left open', () => {
    expect(splitCsv(enc('a,b'), 2)).toBeNull();
    expect(splitCsv(enc('a,b\n1,2'), 2)).toBeNull();
    expect(splitCsv(enc(`a,b\n"open,1\n${'2,3\n'.repeat(20)}`), 2)).toBeNull();
    expect(splitCsv(enc('a\r1\r2\r3\r'), 2)).toBeNull();
    expect(splitCsv(enc('a,b\n1,2\n3,4\n'), 1)).toBeNull();
  });

  it("repeats Excel's sep= line and the blank lines before the header in every slice", () => {
    const text = `sep=;\r\n\r\na;b\r\n${'1;2\r\n'.repeat(10)}`;
    const slices = splitCsv(enc(text), 2)?.map(dec) ?? [];
    expect(slices).toHaveLength(2);
    expect(slices.every((s) => s.startsWith('sep=;\r\n\r\na;b\r\n'))).toBe(true);
    expect(slices.map((s) => s.slice('sep=;\r\n\r\na;b\r\n'.length)).join('')).toBe('1;2\r\n'.repeat(10));
  });

  it('does not cut a file whose header ends with a lone CR (a slice would copy a record with it)', () => {
    expect(splitCsv(enc(`a,b\r1,2\n${'3,4\n'.repeat(10)}`), 2)).toBeNull();
  });
});
