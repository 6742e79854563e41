import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from './limits.ts';
import { readCsv, rowsOf } from './read-csv.ts';
import { NO_HINTS } from './table.ts';

const read = (text: string, limits = {}) => readCsv(text, NO_HINTS, { ...DEFAULT_LIMITS, ...limits });

describe('readCsv', () => {
  it('detects the delimiter the header and the next rows agree on, and reads a one-column file as one column', () => {
    expect(read('a;b\n1,5;2\n3,5;4\n').delimiter).toBe(';');
    expect(read('a\tb c\n"x\ty"\t2\n').fields).toEqual(['a', 'b c']);
    expect(rowsOf(read('name\nSmith, John\nDoe;Jane|x\n'))).toEqual([{ name: 'Smith, John' }, { name: 'Doe;Jane|x' }]);
  });

  it("takes Excel's sep= first line as the delimiter, not as the header, and numbers rows after it", () => {
    const out = read('sep=|\r\na|b\r\n1,2|3\r\n');
    expect(out).toMatchObject({ fields: ['a', 'b'], lines: [3], delimiter: '|' });
    expect(rowsOf(out)).toEqual([{ a: '1,2', b: '3' }]);
  });

  it('keeps blanks in values as written and skips blank rows, their lines still counted', () => {
    const out = read(' a , b \n  x , \n , \n\ny,"  "\n');
    expect(rowsOf(out)).toEqual([
      { a: '  x ', b: ' ' },
      { a: 'y', b: '  ' },
    ]);
    expect(out.lines).toEqual([2, 5]);
  });

  it("enforces the limits with the file's own row numbers", () => {
    expect(() => read('a,b\n1,2\n', { maxColumns: 1 })).toThrow('The file has more than 1 columns.');
    expect(() => read('a,b\n\n\n1,2\n3,"long\nvalue"\n', { maxCellChars: 5 })).toThrow(
      'Row 5, column b: a value is longer than 5 characters.',
    );
    expect(() => read('a\n1\n\n2\n3\n', { maxRows: 2 })).toThrow('The file has more than 2 rows.');
  });

  it('refuses a file holding no header or no rows with a message a person understands', () => {
    expect(() => read('x')).toThrow('The file has a header line but no rows.');
    expect(() => read('a,b\r\n\r\n,\r\n')).toThrow('The file has a header line but no rows.');
    expect(() => read(' \n')).toThrow('The file has no header line: it holds only blank lines.');
    expect(() => read(',,\n1,2,3\n')).toThrow('The CSV file has no header line.');
  });
});
