import { describe, expect, it } from 'vitest';
import { referenceRecords, referenceRows } from '../../../../test/csv-reference.ts';
import { seededRandom } from '../../../../test/seeded-random.ts';
import { errorMessage } from '../../../platform/error-message.ts';
import { readCsvBody, recordAt, rowsOfColumns } from './fast-csv.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { readCsv, rowsOf } from './read-csv.ts';
import { NO_HINTS } from './table.ts';

/** What the reader makes of a text, in the reference's terms; or the message it refused it with. */
function read(text: string, maxRows = DEFAULT_LIMITS.maxRows) {
  try {
    const r = readCsv(text, NO_HINTS, { ...DEFAULT_LIMITS, maxRows });
    return {
      fields: r.fields,
      rows: rowsOf(r),
      lines: r.lines,
      uneven: r.rowProblems.map((p) => p.line),
      delimiter: r.delimiter,
    };
  } catch (error) {
    return errorMessage(error);
  }
}

function reference(text: string, delimiter: string) {
  const records = referenceRecords(text, delimiter);
  return records === 'unclosed' ? records : referenceRows(records);
}

describe('the column-wise CSV reader', () => {
  it('reads quotes, doubled quotes, line breaks in quotes, blank lines and every line break as written', () => {
    const texts = [
      'code,qty,note\nAB,1,plain\nCD,2,"with, comma"\n',
      'code;qty;note\r\nAB;1;"two\r\nlines"\r\nCD;2;"say ""hi"""\r\n\r\n;;\r\nEF;3;\r\n',
      ' code \tqty\tnote\nAB\t1\t"a\nb"\n  \t \t\nCD\t2\t\u00e9t\u00e9 \u6771\u4eac',
      'a|b|c\n1|2|3\n"x|y"|""|\n|"x"|""\n',
      'a,b\n1,2\r\n3,4\r5,6\n"7\r",8\r\n\r\n9,"\r\n"',
      'a,b\n"",""\n" ",x\n12" pipe,y\n',
    ];
    for (const text of texts) {
      const got = read(text);
      expect(typeof got, text).toBe('object');
      const want = typeof got === 'string' ? null : reference(text, got.delimiter);
      expect(want).not.toBe('unclosed');
      if (typeof got !== 'string' && want !== null && want !== 'unclosed') expect(got, JSON.stringify(text)).toMatchObject(want);
    }
  });

  it('numbers each row by the line it starts on, blank lines and line breaks inside quotes counted', () => {
    const got = read('a,b\r\n1,2\n\n"x\ny",3\r4,5\n   \n6,7');
    expect(got).toMatchObject({ lines: [2, 4, 6, 8] });
  });

  it('reads CR LF then LF line by line (not as one row)', () => {
    expect(read('a,b\r\n1,2\n3,4\n5,6\r\n')).toMatchObject({
      rows: [
        { a: '1', b: '2' },
        { a: '3', b: '4' },
        { a: '5', b: '6' },
      ],
    });
  });

  it('refuses more than maxRows rows, and a quoted value never closed, naming its row', () => {
    expect(read(`a,b\n${'1,2\n'.repeat(20)}`, 5)).toBe('The file has more than 5 rows.');
    expect(read('a,b\n1,2\n"open,1\n2,3\n')).toBe('Row 3: a quoted value is never closed.');
  });

  it('marks a value with text after its closing quote as a problem of its row', () => {
    const body = readCsvBody('"x"y,1\n2,3\n', 0, 2, ',', 2, 10);
    expect(body.rowProblems).toEqual([
      { line: 2, message: 'Row 2: a quoted value is followed by more text before its delimiter.' },
    ]);
    expect(recordAt('"x"y,1', 0, ',')?.values).toEqual(['xy', '1']);
  });

  it('agrees with the reference reader on thousands of generated texts', () => {
    const next = seededRandom(20261125);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const pieces = ['a', 'bc', ' ', '', '\u00e9', '\t', '"', '""', ',', ';', '\r', '\n', '\r\n', '\u00a0', '\u3000', 'x y'];
    const cell = (delim: string): string => {
      const raw = Array.from({ length: Math.floor(next() * 4) }, () => pick(pieces)).join('');
      if (next() < 0.3) return `"${raw.replaceAll('"', '""')}"`;
      return raw
        .replaceAll(delim, '')
        .replace(/[\r\n]/g, '')
        .replace(/^"+/, '');
    };
    let compared = 0;
    for (let t = 0; t < 3000; t++) {
      const delim = pick([',', ';', '\t', '|']);
      const width = 2 + Math.floor(next() * 3);
      const header = Array.from({ length: width }, (_, i) => `${pick(['', ' '])}h${i}${pick(['', ' '])}`).join(delim);
      let text = header;
      for (let r = Math.floor(next() * 12); r > 0; r--) {
        const w = next() < 0.9 ? width : Math.max(1, width + pick([-1, 1]));
        const record =
          next() < 0.08 ? pick(['', ' ', delim.repeat(width - 1)]) : Array.from({ length: w }, () => cell(delim)).join(delim);
        text += pick(['\n', '\r\n', '\r']) + record;
      }
      text += pick(['', '\n', '\r\n']);
      const got = read(text);
      const want = reference(text, delim);
      if (want === 'unclosed' || want.rows.length === 0) {
        expect(typeof got, JSON.stringify(text)).toBe('string');
        continue;
      }
      compared++;
      expect(got, JSON.stringify(text)).toMatchObject({ ...want, delimiter: delim });
    }
    expect(compared).toBeGreaterThan(2000);
  });

  it('builds rows from columns with the fields in order, names such as constructor kept', () => {
    expect(
      rowsOfColumns(
        ['constructor', 'b'],
        [
          ['1', '2'],
          ['3', '4'],
        ],
        2,
      ),
    ).toEqual([
      { constructor: '1', b: '3' },
      { constructor: '2', b: '4' },
    ]);
  });
});
