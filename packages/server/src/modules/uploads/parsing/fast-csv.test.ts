import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../test/seeded-random.ts';
import { type CsvLayout, readPlainCsv, rowsOfColumns } from './fast-csv.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { readCsv } from './parse-text.ts';

const OPTIONS = {
  header: true,
  skipEmptyLines: 'greedy' as const,
  delimitersToGuess: [',', ';', '\t', '|'],
  transformHeader: (h: string) => h.trim(),
  dynamicTyping: () => false,
};

/** papaparse's reading of the text, and the fast reader's with the layout papaparse finds (null when it declines). */
function both(text: string, maxRows = 1_000_000) {
  const start = Papa.parse<Record<string, string>>(text, { ...OPTIONS, preview: 1 });
  const layout: CsvLayout = { delimiter: start.meta.delimiter, linebreak: start.meta.linebreak, fields: start.meta.fields ?? [] };
  const plain = start.errors.length > 0 ? null : readPlainCsv(text, layout, maxRows);
  const fast = plain ? rowsOfColumns(layout.fields, plain.columns, plain.rowCount) : null;
  const full = Papa.parse<Record<string, string>>(text, { ...OPTIONS, preview: maxRows + 1 }).data;
  return { fast, full };
}

describe('the fast CSV reader', () => {
  it('reads common files as papaparse does: quotes, escaped quotes, line breaks in quotes, blank lines, CR LF', () => {
    const texts = [
      'code,qty,note\nAB,1,plain\nCD,2,"with, comma"\n',
      'code;qty;note\r\nAB;1;"two\r\nlines"\r\nCD;2;"say ""hi"""\r\n\r\n;;\r\nEF;3;\r\n',
      ' code \tqty\tnote\nAB\t1\t"a\nb"\n  \t \t\nCD\t2\t\u00e9t\u00e9 \u6771\u4eac',
      'a|b|a\n1|2|3\n"x|y"|""|\n|"x"|""\n',
      'a,b\n1,2\r\n3,4\r\n"5\r",6\n',
      'a,b\n"",""\n" ",x\n',
    ];
    for (const text of texts) {
      const { fast, full } = both(text);
      expect(fast, JSON.stringify(text)).not.toBeNull();
      expect(JSON.stringify(fast)).toBe(JSON.stringify(full));
    }
  });

  it('declines what papaparse reads its own way, and then papaparse reads it', () => {
    const texts = [
      'a,b\n1\n', // too few fields
      'a,b\n1,2,3\n', // too many fields
      'a,b\n"open,1\n2,3\n', // a quote never closed
      'a,b\n"x"y,1\n', // something after a closing quote
      'a,b\nx"y,1\n', // a quote inside a field
      'a,b\n "x",1\n', // a blank before a quote
      '"a",b\n1,2\n', // quotes in the header line
      'a,b\r\n1,2\n3,4\r\n', // a lone line feed in a CR LF file
      'a,__proto__\n1,2\n', // a field that would be a prototype
      '\na,b\n1,2\n', // a blank line before the header
    ];
    for (const text of texts) {
      expect(both(text).fast, JSON.stringify(text)).toBeNull();
      const read = readCsv(text, DEFAULT_LIMITS);
      expect(JSON.stringify(read.rows), JSON.stringify(text)).toBe(JSON.stringify(both(text).full));
    }
  });

  it('stops after maxRows + 1 records, as papaparse with preview does', () => {
    const text = `a,b\n${'1,2\n'.repeat(20)}`;
    const { fast, full } = both(text, 5);
    expect(fast).toHaveLength(6);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(full));
  });

  it('agrees with papaparse on thousands of generated texts, whenever it reads them', () => {
    const next = seededRandom(20261123);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const pieces = ['a', 'bc', ' ', '', '\u00e9', '\t', '"', '""', ',', ';', '\r', '\u00a0', '\u3000', 'x y'];
    const cell = (delim: string): string => {
      const raw = Array.from({ length: Math.floor(next() * 4) }, () => pick(pieces)).join('');
      if (next() < 0.3) return `"${raw.replaceAll('"', '""')}${next() < 0.2 ? '\n' : ''}"`;
      return next() < 0.9 ? raw.replaceAll('"', '').replaceAll(delim, '') : raw;
    };
    let read = 0;
    for (let t = 0; t < 3000; t++) {
      const delim = pick([',', ';', '\t', '|']);
      const lb = pick(['\n', '\r\n']);
      const width = 1 + Math.floor(next() * 4);
      const header = Array.from({ length: width }, (_, i) => `${pick(['', ' '])}h${i % 3}${pick(['', ' '])}`).join(delim);
      const lines = [header];
      for (let r = Math.floor(next() * 12); r > 0; r--) {
        const w = next() < 0.9 ? width : Math.max(1, width + pick([-1, 1]));
        lines.push(
          next() < 0.08 ? pick(['', ' ', delim.repeat(width - 1)]) : Array.from({ length: w }, () => cell(delim)).join(delim),
        );
      }
      const text = lines.join(lb) + pick(['', lb]);
      const { fast, full } = both(text);
      if (fast === null) continue;
      read++;
      expect(JSON.stringify(fast), JSON.stringify(text)).toBe(JSON.stringify(full));
    }
    // Most generated texts are in the common shape: the comparison is not an empty one.
    expect(read).toBeGreaterThan(1000);
  });
});
