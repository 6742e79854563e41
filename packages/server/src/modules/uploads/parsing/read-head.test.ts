import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import {
  DEALER_COLUMNS,
  DEALER_MODEL,
  DEALER_SAMPLES,
  excelJsDealers,
  sheetJsDealers,
} from '../../../../test/dealer-workbooks.ts';
import { readHead } from './read-head.ts';

const headOf = (bytes: Uint8Array, group: 'excel' | 'csv' = 'excel', dataModel: Record<string, unknown> | null = DEALER_MODEL) =>
  readHead({ kind: 'head', bytes, group, dataModel });

describe("a workbook's head", () => {
  it('finds the header below title rows (ExcelJS), leaves the empty header cell out, shows dates as ISO and numbers as the sheet does', async () => {
    expect(headOf(await excelJsDealers())).toEqual({
      kind: 'head',
      head: {
        columns: DEALER_COLUMNS,
        samples: DEALER_SAMPLES,
      },
    });
  });

  it.each(['xlsx', 'biff8'] as const)('reads the sheet that names a field, past one that does not (SheetJS, %s)', (bookType) => {
    const outcome = headOf(sheetJsDealers(bookType));
    expect(outcome).toMatchObject({ head: { columns: DEALER_COLUMNS } });
    const samples = 'head' in outcome ? outcome.head.samples : [];
    expect(samples[0]).toEqual(['FR001', 'FR002']);
    expect(samples[3]).toEqual(['contact@garage.example']);
    expect(samples[4]).toEqual(['2026-03-01', '1999-12-31']);
  });

  it("takes the first visible sheet's first row when no row names a field in any spelling", () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['Code PDV', 'Raison sociale'],
        ['FR001', 'Garage'],
      ]),
      'A',
    );
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['other'], ['x']]), 'B');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }));
    expect(headOf(bytes)).toEqual({
      kind: 'head',
      head: { columns: ['Code PDV', 'Raison sociale'], samples: [['FR001'], ['Garage']] },
    });
  });

  it('reads no further than its rows under the header', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => [`FR${i}`, i === 4999 ? 'last' : '']);
    const sheet = XLSX.utils.aoa_to_sheet([['Dealer Code', 'Notes'], ...rows]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Data');
    const bytes = new Uint8Array(XLSX.write(book, { type: 'array', bookType: 'xlsx' }));
    const outcome = headOf(bytes);
    // A value only in the last row is never met.
    expect(outcome).toMatchObject({ head: { columns: ['Dealer Code', 'Notes'], samples: [['FR0', 'FR1', 'FR2'], []] } });
  });

  it('refuses a file that is not a workbook, or a damaged one, saying why', () => {
    expect(headOf(new TextEncoder().encode('a,b\n1,2\n'))).toEqual({
      kind: 'head',
      refused: 'The file is not an Excel workbook (.xlsx, .xls expected).',
    });
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...new Array(60).fill(0)]);
    const damaged = headOf(zip);
    expect('refused' in damaged && damaged.refused).toMatch(/./);
    expect(headOf(new Uint8Array())).toEqual({ kind: 'head', refused: 'The file is empty.' });
  });
});

describe("a CSV file's head", () => {
  it('reads the header and the first non-empty values, nameless columns left out', () => {
    const csv = new TextEncoder().encode('Dealer Code;Name;;E-Mail\nFR001;Garage;;\nFR002;Auto;;a@b.example\n');
    expect(headOf(csv, 'csv')).toEqual({
      kind: 'head',
      head: { columns: ['Dealer Code', 'Name', 'E-Mail'], samples: [['FR001', 'FR002'], ['Garage', 'Auto'], ['a@b.example']] },
    });
  });
});
