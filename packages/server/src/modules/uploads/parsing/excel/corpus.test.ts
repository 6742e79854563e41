import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONG_TEXT_ROWS, longText } from '../../../../../test/corpus/excel/generate.ts';
import { DEFAULT_LIMITS } from '../limits.ts';
import { Cell, type ReadHints } from '../table.ts';
import { readWorkbook } from './index.ts';

// The spreadsheet corpus (test/corpus/excel, written by ExcelJS and by LibreOffice, see its
// generate.ts): each case read in its three copies, with the rows, row numbers and notes a user
// would see, or the refusal.

const CORPUS = path.join(import.meta.dirname, '../../../../../test/corpus/excel');

/** A read value as the cases write it: text, or what a cell shows. */
function plain(value: unknown): unknown {
  if (!(value instanceof Cell)) return value;
  const cell = value.value;
  switch (cell.kind) {
    case 'date':
      return { date: cell.iso };
    case 'number':
      return { number: cell.value, shown: cell.shown, raw: cell.raw };
    case 'boolean':
      return { boolean: cell.value, shown: cell.shown };
    case 'error':
      return { error: cell.problem };
  }
}

/** The copies of a case: ExcelJS's XLSX, LibreOffice's XLSX, LibreOffice's XLS. */
type Copy = 'exceljs' | 'lo' | 'xls';
const COPIES: Record<Copy, (name: string) => { file: string; format: 'xlsx' | 'xls' }> = {
  exceljs: (name) => ({ file: `${name}.xlsx`, format: 'xlsx' }),
  lo: (name) => ({ file: `lo-${name}.xlsx`, format: 'xlsx' }),
  xls: (name) => ({ file: `${name}.xls`, format: 'xls' }),
};

interface Case {
  hints: ReadHints;
  rows?: Record<string, unknown>[];
  lines?: number[];
  notes?: string[];
  refused?: string;
  /** The copies the case has, when not all three. */
  copies?: Copy[];
  /** What a copy holds differently, because its writer saved it so. */
  differs?: Partial<Record<Copy, Partial<Case>>>;
}

const CODE_NAME: ReadHints = { fields: ['code', 'name'], required: ['code'] };
const read = (name: string) => ({ notes: [`Sheet "Data" read.`], lines: [2], hints: CODE_NAME, name });
const n = (number: number, shown: string, raw = String(number)) => ({ number, shown, raw });
const dateRows = [
  {
    code: 'D1',
    day: { date: '2026-03-01' },
    at: { date: '2026-03-01T14:30:00' },
    time: { date: '14:30:00' },
    duration: { date: '36:00:00' },
  },
  {
    code: 'D2',
    day: { date: '1999-12-31' },
    at: { date: '2000-01-01T00:00:05' },
    time: { date: '23:59:59' },
    duration: { date: '02:15:00' },
  },
];

const CASES: Record<string, Case> = {
  dates: { ...read('dates'), lines: [2, 3], rows: dateRows },
  'dates-1904': { ...read('dates-1904'), lines: [2, 3], rows: dateRows },
  // Excel 2010 and later add an `x15:workbookPr` without `date1904` after the workbook's own.
  'dates-1904-extension': { ...read('dates-1904-extension'), lines: [2, 3], rows: dateRows },
  'hash-dates': {
    ...read('hash-dates'),
    lines: [2, 3],
    rows: [
      {
        code: 'H1',
        day: { error: 'B2 holds -1, which its date or time format cannot show (a sheet shows ####)' },
        time: { error: 'C2 holds -0.25, which its date or time format cannot show (a sheet shows ####)' },
      },
      { code: 'H2', day: { date: '2026-03-01' }, time: { date: '12:00:00' } },
    ],
  },
  numbers: {
    ...read('numbers'),
    rows: [
      {
        code: 'N1',
        zip: n(123, '00123'),
        share: n(0.155, '15.5%'),
        big: n(12345678901234567000, '12345678901234567000'),
        plain: n(0.30000000000000004, '0.3'),
        price: n(1234.5, '1,234.50'),
      },
    ],
    // LibreOffice saves numbers with 15 significant digits.
    differs: {
      lo: {
        rows: [
          {
            code: 'N1',
            zip: n(123, '00123'),
            share: n(0.155, '15.5%'),
            big: n(12345678901234600000, '1.23456789012346E+019', '1.23456789012346E+019'),
            plain: n(0.3, '0.3'),
            price: n(1234.5, '1,234.50'),
          },
        ],
      },
    },
  },
  booleans: {
    ...read('booleans'),
    lines: [2, 3],
    rows: [
      { code: 'B1', active: { boolean: true, shown: 'TRUE' } },
      { code: 'B2', active: { boolean: false, shown: 'FALSE' } },
    ],
  },
  'hidden-first': {
    ...read('hidden-first'),
    notes: ['Sheet "Data" read; hidden sheets "Old", "Older" skipped.'],
    rows: [{ code: 'H1', name: 'fresh row' }],
  },
  'instructions-first': {
    ...read('instructions-first'),
    notes: ['Sheet "Data" read; sheet "Instructions" lacks code (passed over).'],
    rows: [{ code: 'I1', name: 'Dealer one' }],
  },
  'title-rows': {
    ...read('title-rows'),
    lines: [5, 6],
    notes: ['Sheet "Data" read.', 'Rows 1–3 of sheet "Data" are above its header row and were ignored.'],
    rows: [
      { code: 'T1', name: 'first' },
      { code: 'T2', name: 'second' },
    ],
  },
  merged: {
    ...read('merged'),
    lines: [2, 3, 4, 5],
    rows: [
      { region: 'North', code: 'M1', name: 'one' },
      { region: 'North', code: 'M2', name: 'two' },
      { region: 'North', code: 'M3', name: 'three' },
      { region: 'South', code: 'M4', name: 'M4' },
    ],
  },
  errors: {
    ...read('errors'),
    lines: [2, 3],
    rows: [
      { code: 'E1', ratio: { error: 'B2 holds the error #DIV/0!' }, total: { error: 'C2 is a formula with no saved value' } },
      { code: 'E2', ratio: { error: 'B3 holds the error #N/A' }, total: n(5, '5') },
    ],
    // LibreOffice computes the formula ExcelJS left without a value when it saves.
    differs: Object.fromEntries(
      (['lo', 'xls'] as const).map((copy) => [
        copy,
        {
          rows: [
            { code: 'E1', ratio: { error: 'B2 holds the error #DIV/0!' }, total: { error: 'C2 holds the error #DIV/0!' } },
            { code: 'E2', ratio: { error: 'B3 holds the error #N/A' }, total: n(5, '5') },
          ],
        },
      ]),
    ),
  },
  'array-formula': {
    ...read('array-formula'),
    lines: [2, 3, 4],
    rows: [2, 3, 4].map((line) => ({
      code: `F${line - 1}`,
      qty: n(line - 1, String(line - 1)),
      double: { error: `C${line} is a formula with no saved value` },
    })),
    // LibreOffice computes the array formula when it saves.
    differs: Object.fromEntries(
      (['lo', 'xls'] as const).map((copy) => [
        copy,
        { rows: [1, 2, 3].map((qty) => ({ code: `F${qty}`, qty: n(qty, String(qty)), double: n(qty * 2, String(qty * 2)) })) },
      ]),
    ),
  },
  // Its shared strings inflate more than 200:1, to 12 MiB in all: the ratio alone refuses no small total.
  'long-texts': {
    ...read('long-texts'),
    copies: ['exceljs', 'lo'],
    lines: Array.from({ length: LONG_TEXT_ROWS }, (_, i) => i + 2),
    rows: Array.from({ length: LONG_TEXT_ROWS }, (_, i) => ({ code: `L${i + 1}`, name: longText(i + 1) })),
  },
  'blank-rows': {
    ...read('blank-rows'),
    lines: [2, 5, 9],
    rows: [
      { code: 'R2', name: 'second row' },
      { code: 'R5', name: 'fifth row' },
      { code: 'R9', name: 'ninth row' },
    ],
  },
  'header-spaces': { ...read('header-spaces'), rows: [{ code: 'S1', name: 'spaced', note: 'kept  as written ' }] },
  'no-fit': {
    hints: { fields: ['code', 'name'], required: ['code', 'name'] },
    refused:
      'No sheet of the workbook has a header row holding the data model\'s fields (looked for in each sheet\'s first 20 rows): sheet "Notes" lacks code, name; sheet "Prices" lacks name.',
  },
  'duplicate-header': { hints: CODE_NAME, refused: 'The header of sheet "Data" names "code" twice (columns A and C).' },
  'empty-header': {
    hints: CODE_NAME,
    refused: 'Column B of sheet "Data" holds values but its header (row 1) is empty: name the column or clear it.',
  },
  'proto-header': {
    hints: CODE_NAME,
    refused: 'The header of sheet "Data" names column B "__proto__", a name no field can have.',
  },
};

describe('spreadsheets written by other applications', () => {
  for (const [name, base] of Object.entries(CASES)) {
    for (const [copy, where] of Object.entries(COPIES).filter(([c]) => base.copies?.includes(c as Copy) ?? true)) {
      const expected = { ...base, ...base.differs?.[copy as Copy] };
      const { file, format } = where(name);
      it(`${file}: ${expected.refused ? 'refused' : 'read'}`, () => {
        const bytes = new Uint8Array(fs.readFileSync(path.join(CORPUS, file)));
        if (expected.refused) {
          expect(() => readWorkbook(bytes, format, expected.hints, DEFAULT_LIMITS)).toThrow(expected.refused);
          return;
        }
        const table = readWorkbook(bytes, format, expected.hints, DEFAULT_LIMITS);
        expect(table.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)])))).toEqual(
          expected.rows,
        );
        expect(table.lines).toEqual(expected.lines);
        expect(table.notes.map((note) => note.message)).toEqual(expected.notes);
      });
    }
  }
});
