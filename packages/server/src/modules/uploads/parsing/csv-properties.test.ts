import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../test/seeded-random.ts';
import { countBreaks } from './fast-csv.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { readCsvFile, rowsOf } from './read-csv.ts';
import { NO_HINTS } from './table.ts';

// CSV files written by another library (papaparse's writer), in the encodings spreadsheet programs
// save, read back: every value comes back as written, a row of the wrong length is a problem of
// that row at its own line, or the file is refused.

// Windows-1252 written by hand: the code points of its bytes 0x80–0x9F (0 where it has none);
// every other byte is the code point of its value.
const HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018,
  0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];
function windows1252Byte(c: string): number {
  const code = c.codePointAt(0) ?? 0;
  const high = HIGH.indexOf(code);
  if (high > 0 || code === 0x20ac) return 0x80 + high;
  if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) return code;
  throw new Error(`${c} is not in Windows-1252`);
}

function encode(text: string, encoding: string): Uint8Array {
  switch (encoding) {
    case 'UTF-8':
      return new TextEncoder().encode(text);
    case 'UTF-8 BOM':
      return new TextEncoder().encode(`\uFEFF${text}`);
    case 'UTF-16 LE':
      return Buffer.from(`\uFEFF${text}`, 'utf16le');
    case 'UTF-16 BE':
      return Buffer.from(`\uFEFF${text}`, 'utf16le').swap16();
    default:
      return Uint8Array.from(text, windows1252Byte);
  }
}

const ENCODINGS = ['UTF-8', 'UTF-8 BOM', 'UTF-16 LE', 'UTF-16 BE', 'Windows-1252'] as const;
// Text every encoding above can hold; the rest only for the Unicode ones.
const COMMON = [
  'a',
  'Zo\u00eb',
  '\u00e9t\u00e9',
  '\u20ac 12,50',
  ' ',
  '"',
  'say "hi"',
  ',',
  ';',
  '\t',
  '|',
  '\r\n',
  '\n',
  '\r',
  '0012',
  'TRUE',
  '\u00df',
];
const UNICODE = ['\u6771\u4eac', '\u{1F600}', '\u00a0', '\u0130'];

describe('CSV written by another library, read back', () => {
  it('gives every value back as written, in every encoding, delimiter, quoting and line ending', () => {
    const next = seededRandom(15_2026);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    for (let t = 0; t < 400; t++) {
      const encoding = pick(ENCODINGS);
      const pool = encoding === 'Windows-1252' ? COMMON : [...COMMON, ...UNICODE];
      const delimiter = pick([',', ';', '\t', '|']);
      const width = 1 + Math.floor(next() * 5);
      const fields = Array.from({ length: width }, (_, i) => `f${i}${pick(['', ' name', '_x'])}`);
      const value = () => Array.from({ length: Math.floor(next() * 3) }, () => pick(pool)).join('');
      // The first value names the row: a row is never blank (a blank one is skipped).
      const rows = Array.from({ length: 1 + Math.floor(next() * 8) }, (_, r) => [
        `r${r}${value()}`,
        ...fields.slice(1).map(value),
      ]);
      const uneven = new Set<number>();
      const quotes = next() < 0.3;
      const records = rows.map((row, r) => {
        let values = row;
        if (width > 1 && next() < 0.1) {
          uneven.add(r);
          values = next() < 0.5 ? row.slice(0, -1) : [...row, 'extra'];
        }
        return Papa.unparse([values], { delimiter, quotes, newline: '\n' });
      });
      const header = Papa.unparse([fields], { delimiter, quotes: false });
      const sep = next() < 0.15 ? `sep=${delimiter}${pick(['\r\n', '\n'])}` : '';
      // Each record ends with a line break of its own: the file's may be mixed.
      const breaks = records.map(() => (next() < 0.2 ? pick(['\r\n', '\n', '\r']) : ''));
      const newline = pick(['\r\n', '\n', '\r']);
      const text = sep + header + newline + records.map((rec, r) => rec + (breaks[r] || newline)).join('');
      const what = JSON.stringify({ encoding, text });

      let line = (sep ? 2 : 1) + 1;
      const lines = records.map((rec, r) => {
        const at = line;
        line += countBreaks(rec, 0, rec.length) + 1;
        void r;
        return at;
      });
      const read = readCsvFile(encode(text, encoding), NO_HINTS, DEFAULT_LIMITS);
      expect(read.fields, what).toEqual(fields);
      expect(read.lines, what).toEqual(lines);
      expect(
        read.rowProblems.map((p) => p.line),
        what,
      ).toEqual(lines.filter((_, r) => uneven.has(r)));
      const got = rowsOf(read);
      rows.forEach((row, r) => {
        if (uneven.has(r)) return;
        expect(got[r], what).toEqual(Object.fromEntries(fields.map((f, i) => [f, row[i]])));
      });
      const used =
        encoding === 'UTF-8 BOM' || (encoding === 'Windows-1252' && [...text].every((c) => c.charCodeAt(0) < 0x80))
          ? 'UTF-8'
          : encoding;
      expect(read.notes[0]?.message, what).toMatch(new RegExp(`^Read as ${used}`));
    }
  });
});
