import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { rowsOfStored } from '../../../platform/files/row-tables.ts';
import { checkRows } from './check-rows.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { parseFile, summaryOf } from './parse-file.ts';
import { readCsv, rowsOf } from './read-csv.ts';
import { NO_HINTS } from './table.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const model = {
  type: 'object',
  required: ['code', 'price'],
  properties: { code: { type: 'string', minLength: 2 }, price: { type: 'number' } },
};

function workbook(rows: Record<string, unknown>[], bookType: 'xlsx' | 'xls'): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.json_to_sheet(rows), 'First');
  XLSX.utils.book_append_sheet(book, XLSX.utils.json_to_sheet([{ other: 1 }]), 'Second');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType }));
}

describe('parseFile: formats', () => {
  it('reads CSV with a BOM and a detected semicolon delimiter, typed by the data model', () => {
    const out = parseFile({ bytes: enc('\uFEFFcode;price\nAB;12.5\nCD;3\n'), group: 'csv', dataModel: model });
    expect(out.status).toBe('valid');
    expect(out.rowCount).toBe(2);
    expect(rowsOfStored(out.rowsJson ?? '')).toEqual([
      { code: 'AB', price: 12.5 },
      { code: 'CD', price: 3 },
    ]);
  });

  it('reads tab- and comma-separated files with quoted fields', () => {
    expect(rowsOfStored(parseFile({ bytes: enc('a\tb\n1\t2\n'), group: 'csv', dataModel: null }).rowsJson ?? '')).toEqual([
      { a: '1', b: '2' },
    ]);
    const quoted = parseFile({ bytes: enc('a,b\n"x, y","line\nbreak"\n'), group: 'csv', dataModel: null });
    expect(rowsOfStored(quoted.rowsJson ?? '')).toEqual([{ a: 'x, y', b: 'line\nbreak' }]);
  });

  it('reads the first sheet of XLSX and XLS workbooks', () => {
    for (const type of ['xlsx', 'xls'] as const) {
      const out = parseFile({ bytes: workbook([{ code: 'AB', price: 1 }], type), group: 'excel', dataModel: model });
      expect(out.status, type).toBe('valid');
      expect(out.format).toBe(type);
      expect(rowsOfStored(out.rowsJson ?? '')).toEqual([{ code: 'AB', price: 1 }]);
    }
  });

  it('reads the repeated records of an XML document', () => {
    const xml =
      '<?xml version="1.0"?><items><item><code>AB</code><price>2</price></item><item><code>CD</code><price>4</price></item></items>';
    const out = parseFile({ bytes: enc(xml), group: 'xml', dataModel: model });
    expect(out.status).toBe('valid');
    expect(rowsOfStored(out.rowsJson ?? '')).toEqual([
      { code: 'AB', price: 2 },
      { code: 'CD', price: 4 },
    ]);
  });

  it('reads a JSON array and JSON lines', () => {
    const arr = parseFile({ bytes: enc('[{"code":"AB","price":1}]'), group: 'json', dataModel: model });
    expect(arr.status).toBe('valid');
    const lines = parseFile({
      bytes: enc('{"code":"AB","price":1}\n{"code":"CD","price":2}\n'),
      group: 'json',
      dataModel: model,
    });
    expect(lines.rowCount).toBe(2);
  });
});

describe('parseFile: checks against the data model', () => {
  it('reports one problem per failure with its row number, and a summary', () => {
    const out = parseFile({ bytes: enc('code,price\nAB,1\nC,x\n,2\n'), group: 'csv', dataModel: model });
    expect(out.status).toBe('invalid');
    expect(out.rowsJson).toBeNull();
    const messages = out.problems.map((p) => p.message);
    // Rows are numbered as the file numbers its lines, the header being line 1.
    expect(messages).toEqual([
      'Row 3, code: "C" is shorter than 2 characters',
      'Row 3, price: "x" is not a number',
      'Row 4, code: no value, and one is required',
    ]);
    expect(out.problems.map((p) => p.row)).toEqual([3, 3, 4]);
    expect(out.summary).toBe('3 rows read, 2 invalid (3 problems).');
  });

  it('bounds the problems it lists and counts the rest', () => {
    const csv = `code,price\n${'X,y\n'.repeat(500)}`;
    const out = parseFile({ bytes: enc(csv), group: 'csv', dataModel: model, limits: { maxProblems: 10 } });
    expect(out.problems).toHaveLength(10);
    expect(out.problemCount).toBe(1000);
    expect(out.summary).toBe('500 rows read, 500 invalid (1000 problems, the first 10 listed).');
  });

  it('stores what checking the rows one by one stores, whether or not the column check can vouch for them', () => {
    const typed = {
      type: 'object',
      additionalProperties: false,
      required: ['code'],
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{2}$' },
        qty: { type: 'integer', minimum: 0 },
        price: { type: 'number' },
        ok: { type: 'boolean' },
        day: { type: 'string', format: 'date' },
      },
    };
    const csv = `code,qty,price,ok,day\nAB, 1 ,1e2,true,2026-01-31\nCD,0,-0.5,false,2024-02-29\n${'EF,3,2.5,true,2026-11-23\n'.repeat(20)}`;
    // The same model with a keyword the column check leaves to the row check.
    const unknown = { ...typed, minProperties: 1 };
    // Fields the rows put in another order (array indexes first): the rows' table lists them as the rows do.
    const indexed = { type: 'object', properties: { 2: { type: 'integer' }, a: { type: 'string' } } };
    for (const [text, dataModel] of [
      [csv, typed],
      [csv, unknown],
      [csv, null],
      ['a,2\nx,3\n', indexed],
    ] as const) {
      const read = rowsOf(readCsv(text, NO_HINTS, DEFAULT_LIMITS));
      const checked = checkRows({ rows: read, lines: read.map((_, i) => i + 2), rowProblems: [] }, dataModel, 10);
      expect(checked.invalidRows).toBe(0);
      const { rows } = checked;
      const out = parseFile({ bytes: enc(text), group: 'csv', dataModel });
      expect(out.status).toBe('valid');
      // The same rows, fields in the same order (the stored text may code repeated texts).
      expect(JSON.stringify(rowsOfStored(out.rowsJson ?? ''))).toBe(JSON.stringify(rows));
    }
    expect(rowsOfStored(parseFile({ bytes: enc(csv), group: 'csv', dataModel: typed }).rowsJson ?? '').slice(0, 2)).toEqual([
      { code: 'AB', qty: 1, price: 100, ok: true, day: '2026-01-31' },
      { code: 'CD', qty: 0, price: -0.5, ok: false, day: '2024-02-29' },
    ]);
  });

  it('checks each row against the items of an array data model', () => {
    const out = parseFile({ bytes: enc('[{"code":"AB"}]'), group: 'json', dataModel: { type: 'array', items: model } });
    expect(out.problems[0]?.message).toBe('Row 1, price: no value, and one is required');
  });
});

describe('summaryOf', () => {
  it('counts rows and problems in agreement with their number', () => {
    expect(summaryOf(1, { invalidRows: 1, problemCount: 1, problems: [{ row: 2, message: 'Row 2: x' }] })).toBe(
      '1 row read, 1 invalid (1 problem).',
    );
    expect(summaryOf(1, { invalidRows: 0, problemCount: 0, problems: [] })).toBe('1 row read, all valid.');
  });
});

describe('parseFile: hostile files', () => {
  it('refuses a zip bomb posing as XLSX without inflating it', () => {
    const bomb = zipSync({
      '[Content_Types].xml': enc('<Types/>'),
      'xl/workbook.xml': enc('<workbook/>'),
      'xl/worksheets/sheet1.xml': new Uint8Array(64 * 1024 * 1024),
    });
    const out = parseFile({ bytes: bomb, group: 'excel', dataModel: null });
    expect(out.status).toBe('invalid');
    // Refused before the sheet is inflated: it names no sheet (archive-limits.test.ts inflates real bombs).
    expect(out.summary).toMatch(/no visible sheet|compression bomb/);
  });

  it('refuses XML that declares entities', () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><rows><row><a>&lol2;</a></row></rows>';
    const out = parseFile({ bytes: enc(laughs), group: 'xml', dataModel: null });
    expect(out.status).toBe('invalid');
    expect(out.summary).toBe('XML entity declarations are not accepted.');
  });

  it('refuses a CSV with a 10 MB line', () => {
    const out = parseFile({ bytes: enc(`a,b\n${'x'.repeat(10 * 1024 * 1024)},1\n`), group: 'csv', dataModel: null });
    expect(out.status).toBe('invalid');
    expect(out.summary).toMatch(/longer than/);
  });

  it('refuses JSON nested 100,000 deep', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const out = parseFile({ bytes: enc(deep), group: 'json', dataModel: null });
    expect(out.status).toBe('invalid');
  });

  it('refuses a file whose content does not match the data source type', () => {
    const lying = workbook([{ a: 1 }], 'xlsx');
    const out = parseFile({ bytes: lying, group: 'csv', dataModel: null });
    expect(out.status).toBe('invalid');
    expect(out.summary).toBe("The file content does not match the data source's type (.csv, .txt expected).");
    expect(parseFile({ bytes: enc('a,b\n1,2'), group: 'excel', dataModel: null }).status).toBe('invalid');
  });

  it("names the NUL bytes of a CSV source's file: UTF-16 without its byte order mark", () => {
    const utf16 = new Uint8Array(Buffer.from('code,name\r\nA1,one\r\n', 'utf16le'));
    expect(parseFile({ bytes: utf16, group: 'csv', dataModel: null }).summary).toBe(
      'The file holds NUL bytes (the first at byte 2), which no CSV text holds: it may be UTF-16 text without its byte order mark, or not a CSV file.',
    );
  });

  it('names the Excel formats before Excel 97 (BIFF2–5) as not read, not as another type', () => {
    const corpus = path.join(import.meta.dirname, '../../../../test/corpus/excel');
    const expected: Record<string, string> = {
      biff2: 'an Excel 2.0 file (BIFF2)',
      biff5: 'an Excel 5.0/95 file (BIFF5)',
    };
    for (const [biff, what] of Object.entries(expected)) {
      const bytes = new Uint8Array(fs.readFileSync(path.join(corpus, `old-${biff}.xls`)));
      expect(parseFile({ bytes, group: 'excel', dataModel: null }).summary, biff).toBe(
        `The workbook is ${what}, an old Excel format, which is not read: open it in Excel or LibreOffice and save it as an Excel workbook (.xlsx).`,
      );
    }
    // Excel 3.0 and 4.0 start with their own BOF record (type 0x0209, 0x0409; 6 bytes).
    for (const [second, version] of [
      [0x02, 3],
      [0x04, 4],
    ]) {
      const bytes = Uint8Array.from([0x09, second ?? 0, 0x06, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00]);
      expect(parseFile({ bytes, group: 'excel', dataModel: null }).summary).toMatch(
        `an Excel ${version}.0 file (BIFF${version})`,
      );
    }
  });

  it('refuses binary noise and empty files', () => {
    const noise = new Uint8Array(crypto.randomBytes(100_000));
    for (const group of ['csv', 'excel', 'xml', 'json'] as const) {
      expect(parseFile({ bytes: noise, group, dataModel: null }).status, group).toBe('invalid');
    }
    expect(parseFile({ bytes: new Uint8Array(0), group: 'csv', dataModel: null }).summary).toBe('The file is empty.');
  });
});
