import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';

// Workbooks of dealers whose header almost names a dealer model's fields ("Dealer Code", "E-Mail"…),
// written by other libraries than ours: the column mapping's tests read them.

/** A dealer model the workbooks almost fit: their header spells its fields otherwise. */
export const DEALER_MODEL = {
  type: 'object',
  required: ['dealerCode', 'name', 'city'],
  additionalProperties: false,
  properties: {
    dealerCode: { type: 'string', pattern: '^[A-Z]{2}[0-9]{3}$' },
    name: { type: 'string', minLength: 1 },
    city: { type: 'string', minLength: 1, 'x-aliases': ['Ville'] },
    email: { type: 'string', format: 'email' },
    opened: { type: 'string' },
  },
};

/** The columns each workbook's header names, as read (the empty header cell left out). */
export const DEALER_COLUMNS = ['Dealer Code', 'Name', 'Ville', 'E-Mail', 'Opened', 'Share'];

/** The first three values of each of those columns in the dealers' workbooks, as a head shows them (dates as ISO, numbers as the sheet does). */
export const DEALER_SAMPLES = [
  ['FR001', 'FR002', 'FR003'],
  ['Garage du Centre', 'Auto Sud', 'Nord Autos'],
  ['Lyon', 'Marseille', 'Lille'],
  ['contact@garage.example', 'nord@autos.example', 'ouest@motors.example'],
  ['2026-03-01', '1999-12-31', '2010-07-14'],
  ['12.5%', '50.0%', '100.0%'],
];

const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));

/** An XLSX file of one sheet written by ExcelJS: its rows, and the number formats of some columns (by number, from 1). */
export async function excelJsWorkbook(rows: unknown[][], formats: Record<number, string> = {}): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Dealers');
  for (const row of rows) sheet.addRow(row);
  for (const [column, format] of Object.entries(formats)) sheet.getColumn(Number(column)).numFmt = format;
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/**
 * An XLSX file written by ExcelJS: a title row and a blank row above the header, an empty header
 * cell over an empty column (C), a date column and a percentage column.
 */
export function excelJsDealers(): Promise<Uint8Array> {
  return excelJsWorkbook(
    [
      ['Dealers of France, December 2026'],
      [],
      ['Dealer Code', ' Name ', null, 'Ville', 'E-Mail', 'Opened', 'Share'],
      ['FR001', 'Garage du Centre', null, 'Lyon', 'contact@garage.example', utc(2026, 3, 1), 0.125],
      ['FR002', 'Auto Sud', null, 'Marseille', null, utc(1999, 12, 31), 0.5],
      ['FR003', 'Nord Autos', null, 'Lille', 'nord@autos.example', utc(2010, 7, 14), 1],
      ['FR004', 'Ouest Motors', null, 'Nantes', 'ouest@motors.example', utc(2020, 2, 29), 0.25],
    ],
    { 6: 'yyyy-mm-dd', 7: '0.0%' },
  );
}

/**
 * A workbook written by SheetJS (XLSX, or XLS with `biff8`): a first visible sheet of notes that
 * names no field, then the dealers, their header with an empty cell (C) and a date column.
 */
export function sheetJsDealers(bookType: 'xlsx' | 'biff8'): Uint8Array {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Read me'], ['Sent by the dealer network']]), 'Notes');
  const sheet = XLSX.utils.aoa_to_sheet(
    [
      ['Dealer Code', 'Name', '', 'Ville', 'E-Mail', 'Opened', 'Share'],
      ['FR001', 'Garage du Centre', '', 'Lyon', 'contact@garage.example', utc(2026, 3, 1), 0.125],
      ['FR002', 'Auto Sud', '', 'Marseille', '', utc(1999, 12, 31), 0.5],
    ],
    { cellDates: true, dateNF: 'yyyy-mm-dd' },
  );
  for (const ref of ['G2', 'G3']) {
    const cell = sheet[ref];
    if (cell) cell.z = '0.0%';
  }
  XLSX.utils.book_append_sheet(book, sheet, 'Dealers');
  return new Uint8Array(XLSX.write(book, { type: 'array', bookType, cellDates: false }));
}
