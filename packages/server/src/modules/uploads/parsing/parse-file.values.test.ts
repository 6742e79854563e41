import fs from 'node:fs';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { rowsOfStored } from '../../../platform/files/row-tables.ts';
import { parseFile } from './parse-file.ts';

// The same values written in every format a data source takes come back the same: empty cells
// are no value, text converts by the field's type, problems name the row as the file numbers it.

const enc = (s: string) => new TextEncoder().encode(s);

const model = {
  type: 'object',
  required: ['code'],
  properties: {
    code: { type: 'string', pattern: '^[A-Z]{2}$' },
    qty: { type: 'integer', minimum: 0 },
    mail: { type: 'string', format: 'email' },
    day: { type: 'string', format: 'date' },
    ok: { type: 'boolean' },
  },
};

const FIELDS = ['code', 'qty', 'mail', 'day', 'ok'];

/** The table (all values as text, '' for empty) written as each format's author would write it. */
function files(table: string[][]): Record<'csv' | 'excel' | 'xml' | 'json', Uint8Array> {
  const csv = [FIELDS, ...table].map((r) => r.join(',')).join('\r\n');
  const sheet = XLSX.utils.aoa_to_sheet([FIELDS, ...table.map((r) => r.map((v) => (v === '' ? null : v)))]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Data');
  const xlsx = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }));
  const xml = `<?xml version="1.0" encoding="UTF-8"?><dealers>${table
    .map(
      (r) => `<dealer>${r.map((v, i) => (v === '' ? `<${FIELDS[i]}/>` : `<${FIELDS[i]}>${v}</${FIELDS[i]}>`)).join('')}</dealer>`,
    )
    .join('')}</dealers>`;
  const json = JSON.stringify(table.map((r) => Object.fromEntries(r.map((v, i) => [FIELDS[i], v]))));
  return { csv: enc(csv), excel: xlsx, xml: enc(xml), json: enc(json) };
}

describe('values read the same way in every format', () => {
  it('takes an empty cell of an optional field as no value, and converts text by the field type', () => {
    const table = [
      ['AB', '', '', '', ''],
      ['CD', '12', 'a@b.example', '2026-03-01', 'TRUE'],
      ['EF', '0', '', '', 'false'],
    ];
    for (const [group, bytes] of Object.entries(files(table))) {
      const out = parseFile({ bytes, group: group as 'csv', dataModel: model });
      expect(out.problems, group).toEqual([]);
      expect(out.status, group).toBe('valid');
      // No value is null to the component, whatever the format.
      expect(rowsOfStored(out.rowsJson ?? ''), group).toEqual([
        { code: 'AB', qty: null, mail: null, day: null, ok: null },
        { code: 'CD', qty: 12, mail: 'a@b.example', day: '2026-03-01', ok: true },
        { code: 'EF', qty: 0, mail: null, day: null, ok: false },
      ]);
    }
  });

  it('reports an empty required field as required, naming the row', () => {
    const table = [
      ['AB', '1', '', '', ''],
      ['', '2', '', '', ''],
    ];
    for (const [group, bytes] of Object.entries(files(table))) {
      const out = parseFile({ bytes, group: group as 'csv', dataModel: model });
      expect(out.status, group).toBe('invalid');
      // The sheet and the CSV file number the header as row 1; JSON items and XML records by their position.
      const row = group === 'csv' || group === 'excel' ? 3 : 2;
      expect(out.problems, group).toEqual([{ row, message: `Row ${row}, code: no value, and one is required` }]);
    }
  });

  it('never rounds an integer beyond 2^53', () => {
    const table = [['AB', '9007199254740993', '', '', '']];
    for (const [group, bytes] of Object.entries(files(table))) {
      if (group === 'excel') continue; // a sheet's text cell: see the workbook corpus
      const out = parseFile({ bytes, group: group as 'csv', dataModel: model });
      expect(out.status, group).toBe('invalid');
      expect(out.problems[0]?.message, group).toMatch(/qty is 9007199254740993, an integer too large to be kept exact/);
    }
    const json = parseFile({ bytes: enc('[{"code":"AB","qty":9007199254740993}]'), group: 'json', dataModel: model });
    expect(json.problems[0]?.message).toBe('Row 1: qty is 9007199254740993, an integer too large to be kept exact (beyond 2^53)');
    const kept = parseFile({
      bytes: enc('[{"code":"AB","id":12345678901234567890}]'),
      group: 'json',
      dataModel: { type: 'object', properties: { code: { type: 'string' }, id: { type: 'string' } } },
    });
    expect(rowsOfStored(kept.rowsJson ?? '')).toEqual([{ code: 'AB', id: '12345678901234567890' }]);
  });

  it('takes a date-time and a time without a zone for the formats date-time and time, as a sheet gives them', () => {
    const when = {
      type: 'object',
      properties: {
        day: { type: 'string', format: 'date' },
        at: { type: 'string', format: 'date-time' },
        time: { type: 'string', format: 'time' },
      },
    };
    const corpus = path.join(import.meta.dirname, '../../../../test/corpus/excel');
    for (const file of ['dates.xlsx', 'lo-dates.xlsx', 'dates.xls', 'dates-1904-extension.xlsx']) {
      const out = parseFile({ bytes: new Uint8Array(fs.readFileSync(path.join(corpus, file))), group: 'excel', dataModel: when });
      expect(out.problems, file).toEqual([]);
      expect(rowsOfStored(out.rowsJson ?? '')[0], file).toMatchObject({ at: '2026-03-01T14:30:00', time: '14:30:00' });
    }
    const csv =
      'day,at,time\n2026-03-01,2026-03-01T14:30:15,14:30:15\n2026-03-01,2026-03-01T14:30:15+01:00,14:30:15Z\n2026-03-01,2026-03-01T25:00:00,24:00:00\n';
    const out = parseFile({ bytes: enc(csv), group: 'csv', dataModel: when });
    expect(out.problems).toEqual([
      {
        row: 4,
        message:
          'Row 4, at: "2026-03-01T25:00:00" is not a date and time (YYYY-MM-DDTHH:mm:ss, a zone such as Z or +01:00 optional)',
      },
      { row: 4, message: 'Row 4, time: "24:00:00" is not a time (HH:mm:ss, a zone optional)' },
    ]);
  });

  it('takes null in a JSON field as no value, as an empty cell: passed when optional, reported when required', () => {
    const json = '[{"code":"AB","qty":null,"mail":null,"day":null,"ok":null},{"code":null,"qty":1}]';
    const out = parseFile({ bytes: enc(json), group: 'json', dataModel: model });
    expect(out.problems).toEqual([{ row: 2, message: 'Row 2, code: no value, and one is required' }]);
    const valid = parseFile({ bytes: enc('[{"code":"AB","qty":null}]'), group: 'json', dataModel: model });
    expect(rowsOfStored(valid.rowsJson ?? '')).toEqual([{ code: 'AB', qty: null }]);
  });
});
