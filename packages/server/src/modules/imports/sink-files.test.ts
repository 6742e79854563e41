import * as XLSX from '@e965/xlsx';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { generatedCells, readAsFormula } from '../../../test/generated-cells.ts';
import { columnTable } from '../../platform/files/row-tables.ts';
import { FORMULA } from '../../runtime/sandbox/csv-writer.ts';
import { RunStepError } from './run-errors.ts';
import { columnsOf, csvLines, csvRecords, sinkFileName, tableRows, writeSinkFile, writeSinkTable } from './sink-files.ts';

const rows = [
  { code: 'A1', price: 1.5, tags: ['x', 'y'] },
  { code: '=HYPERLINK("http://evil")', price: 2, note: 'late column' },
];

describe('output files', () => {
  it('writes CSV with every column, nested values as JSON and formulas escaped', () => {
    const text = Buffer.from(writeSinkFile(rows, { name: 'out', format: 'CSV' }).bytes).toString();
    expect(text).toBe('code,price,tags,note\nA1,1.5,"[""x"",""y""]",\n"\'=HYPERLINK(""http://evil"")",2,,late column\n');
  });

  it('writes CSV exactly as papaparse unparses the same table', () => {
    const values: unknown[] = [
      '',
      ' ',
      'plain',
      ' lead',
      'trail ',
      'a,b',
      'say "hi"',
      'line\nbreak',
      'cr\rhere',
      '\uFEFFbom',
      '=1+2',
      '+33 1 23',
      '-5',
      '@home',
      '\tTab',
      '\rCR',
      '=A1\nB2',
      '-',
      "'quoted",
      0,
      -0,
      1.5,
      -3,
      1e21,
      2 ** 53,
      true,
      false,
      null,
      undefined,
      [1, '=x'],
      { a: 'b, c' },
      [],
      {},
      'é ü 🚀',
      '\u2028sep',
    ];
    const reference = (rows: Record<string, unknown>[]) => {
      const columns = columnsOf(rows);
      const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : v);
      const table = rows.map((row) => columns.map((c) => cell(row[c])));
      return `${Papa.unparse({ fields: columns, data: table }, { escapeFormulae: FORMULA, newline: '\n' })}\n`;
    };
    const csv = (rows: Record<string, unknown>[]) =>
      Buffer.from(writeSinkFile(rows, { name: 'out', format: 'CSV' }).bytes).toString();
    const many = values.map((v, i) => ({ [`c${i % 7}`]: v, '=head': values[(i * 5) % values.length], ' k,"': i }));
    const long = Array.from({ length: 5000 }, (_, i) => many[i % many.length] ?? {});
    const cases: Record<string, unknown>[][] = [[], [{}], [{}, {}, {}], [{ a: 1 }], [{ a: 1 }, {}, { b: 2 }], many, long];
    for (const rows of cases) expect(csv(rows)).toBe(reference(rows));
    // A column table of plain values is written to the same bytes as its rows.
    const plain = values.filter((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
    const shared = Array.from({ length: 3000 }, (_, i) => ({
      '=head': plain[i % plain.length],
      ' k,"': plain[(i * 7) % plain.length],
      n: i,
    }));
    const table = columnTable(shared);
    expect(table).not.toBeNull();
    if (table) {
      expect(Buffer.from(writeSinkTable(table, { name: 'out', format: 'CSV' }).bytes).toString()).toBe(reference(shared));
      const json = writeSinkTable(table, { name: 'out', format: 'JSON' });
      expect(Buffer.from(json.bytes).toString()).toBe(JSON.stringify(shared));
      expect(json.extension).toBe('.json');
    }
    // Whole columns looked at once: plain texts, numbers, and texts of which one needs quoting or escaping.
    const tricky = ['x,y', ' lead', 'trail ', '=1', '-', '\tt', 'a"b', 'l\nf', '\uFEFF', 'a\uE000=b', 'a \uE000b'];
    for (const odd of tricky) {
      const columns = Array.from({ length: 500 }, (_, i) => ({
        plain: `p${i}`,
        n: i % 3 === 0 ? -i / 7 : i,
        odd: i === 250 ? odd : `o${i}`,
        empty: '',
      }));
      const table = columnTable(columns);
      expect(table).not.toBeNull();
      if (table)
        expect(Buffer.from(writeSinkTable(table, { name: 'o', format: 'CSV' }).bytes).toString()).toBe(reference(columns));
    }
    // What the writer writes, the check of a CSV written elsewhere accepts, counting its records.
    for (const rows of [...cases.filter((c) => c.length > 0 && columnsOf(c).length > 0), shared]) {
      expect(csvRecords(Buffer.from(csv(rows)))).toBe(rows.length);
    }
  });

  it('refuses a CSV written elsewhere with a formula cell or that is not well-formed', () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    expect(csvRecords(bytes('a,b\n-3,"\'=1"\n-1.5e-7,"\'=A1\nB2"\n"x,y",\n\u00e9t\u00e9,"\u6771\u4eac, \ud83d\ude97"\n'))).toBe(
      4,
    );
    // Not UTF-8: a lone continuation byte, an overlong encoding, a cut character.
    for (const bad of [
      [0x61, 0x2c, 0x62, 0x0a, 0x80, 0x2c, 0x31, 0x0a],
      [0x61, 0x0a, 0xc0, 0xaf, 0x0a],
      [0x61, 0x0a, 0xe6, 0x9d, 0x0a],
    ]) {
      expect(csvRecords(Uint8Array.from(bad)), JSON.stringify(bad)).toBeNull();
    }
    for (const bad of [
      'a,b\n=1+2,x\n',
      'a,b\nx,"=HYPERLINK(""http://evil"")"\n',
      'a,b\n"@home",x\n',
      'a,b\n1,"=A1\nB2"\n',
      'a,b\n1,"-x\r\ny"\n',
      'a,b\n+33 1,x\n',
      'a,b\n-x,1\n',
      'a,b\n\tTab,1\n',
      '=cmd,b\n1,2\n',
      'a,b\n1,2', // no final line feed
      'a,b\n1\n', // a short line
      'a,b\n1,2,3\n',
      'a,b\n"open,1\n',
      'a,b\nx"y,1\n',
      'a,b\n"x"y,1\n',
      '',
    ]) {
      expect(csvRecords(bytes(bad)), JSON.stringify(bad)).toBeNull();
    }
  });

  it('escapes every generated cell that starts like a formula, line breaks after it or not, and reads back the rest as written', () => {
    const cells = generatedCells(16, 4000);
    const rows = cells.map((v, n) => ({ n, v }));
    const table = columnTable(rows);
    const files = [writeSinkFile(rows, { name: 'out', format: 'CSV' }).bytes];
    if (table) files.push(writeSinkTable(table, { name: 'out', format: 'CSV' }).bytes);
    expect(files).toHaveLength(2);
    for (const bytes of files) {
      const parsed = Papa.parse<string[]>(Buffer.from(bytes).toString(), { header: false }).data.slice(1, -1);
      expect(parsed.map((line) => line[1])).toEqual(cells.map((c) => (FORMULA.test(c) ? `'${c}` : c)));
      expect(parsed.filter((line) => readAsFormula(line[1] ?? ''))).toEqual([]);
      expect(csvRecords(bytes)).toBe(cells.length);
    }
    // A file written elsewhere with any of those cells unescaped is refused.
    for (const cell of cells.filter(readAsFormula)) {
      expect(csvRecords(Buffer.from(`v\n"${cell.replaceAll('"', '""')}"\n`)), JSON.stringify(cell)).toBeNull();
    }
  });

  it('checks a CSV written elsewhere piece by piece as it checks it whole, pieces cut after a line', () => {
    const text = 'a,b\nx,"line\nbreak"\n"q""uote",2\n\u00e9t\u00e9,3\n-4,5\n';
    const bytes = Buffer.from(text);
    // Every way of cutting the file in two after a line feed that ends a record.
    const ends = [4, 19, 31, 39, bytes.length];
    for (const cut of ends.slice(0, -1)) {
      const head = csvLines(bytes.subarray(0, cut), null);
      const rest = csvLines(bytes.subarray(cut), head?.width ?? null);
      expect(head?.width).toBe(2);
      expect((head?.count ?? 0) + (rest?.count ?? 0) - 1).toBe(csvRecords(bytes));
    }
    // A piece as wide as the header, not one of another width; a piece ends with a line feed, and
    // not inside quotes or a character.
    expect(csvLines(Buffer.from('1,2\n3,4\n'), 2)).toEqual({ count: 2, width: 2 });
    expect(csvLines(Buffer.from('1,2,3\n'), 2)).toBeNull();
    expect(csvLines(bytes.subarray(0, 10), null)).toBeNull();
    expect(csvLines(Buffer.from('x,"open\n'), 2)).toBeNull();
    expect(csvLines(bytes.subarray(4, 12), 2)).toBeNull();
    expect(csvLines(Buffer.concat([bytes.subarray(31, 32), Buffer.from('\n')]), 1)).toBeNull();
    expect(csvLines(Buffer.from('=1,2\n'), 2)).toBeNull();
  });

  it('lists every field of the rows once, in the order they first appear', () => {
    const rows = [{ a: 1, b: 2 }, { a: 3, b: 4 }, { b: 5, a: 6 }, { c: 7 }, {}, { a: 8, b: 9 }, { d: 0, a: 1 }];
    expect(columnsOf(rows)).toEqual(['a', 'b', 'c', 'd']);
    expect(columnsOf([])).toEqual([]);
  });

  it('writes JSON as the rows themselves', () => {
    const file = writeSinkFile(rows, { name: 'out', format: 'JSON' });
    expect(file.extension).toBe('.json');
    expect(JSON.parse(Buffer.from(file.bytes).toString())).toEqual(rows);
  });

  it('writes XLSX with one sheet named after the sink that reads back the same cells', () => {
    const file = writeSinkFile(rows, { name: 'prices/out', format: 'XLSX' });
    const book = XLSX.read(file.bytes, { type: 'buffer' });
    expect(book.SheetNames).toEqual(['prices_out']);
    const sheet = book.Sheets.prices_out;
    if (!sheet) throw new Error('no sheet');
    expect(XLSX.utils.sheet_to_json(sheet, { defval: '' })[0]).toEqual({ code: 'A1', price: 1.5, tags: '["x","y"]', note: '' });
  });

  it('takes one object as one row and refuses other values', () => {
    expect(tableRows({ a: 1 }, 'out')).toEqual([{ a: 1 }]);
    expect(() => tableRows([{ a: 1 }, 3], 'out')).toThrow(
      new RunStepError('Data sink out: item 2 of the output is not an object.'),
    );
  });

  it('names files after pipeline, sink and time, safe for any file system', () => {
    expect(sinkFileName('prices FR/2', 'out', new Date('2026-03-10T12:34:56.789Z'), '.csv')).toBe(
      'prices_FR_2_out_20260310T123456Z.csv',
    );
  });
});
