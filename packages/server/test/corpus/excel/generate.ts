// Writes the spreadsheet corpus the reader's tests read (their expectations are the table in
// src/modules/uploads/parsing/excel/corpus.test.ts): each case as an XLSX file written by
// ExcelJS, then the same workbook as LibreOffice saves it, in XLSX (lo-*.xlsx) and in XLS (*.xls).
// Not run by the tests (the files are committed); run it again after changing a case:
//   node --import tsx packages/server/test/corpus/excel/generate.ts [case…]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';

const here = import.meta.dirname;
const SOFFICE = '/usr/bin/soffice';

type Build = (book: ExcelJS.Workbook) => void;

/** A time of day as a sheet stores it: a fraction of a day. */
const time = (h: number, m: number, s = 0) => (h * 3600 + m * 60 + s) / 86_400;
const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(Date.UTC(y, mo - 1, d, h, mi, s));

function dates(book: ExcelJS.Workbook): void {
  const sheet = book.addWorksheet('Data');
  sheet.addRow(['code', 'day', 'at', 'time', 'duration']);
  sheet.addRow(['D1', utc(2026, 3, 1), utc(2026, 3, 1, 14, 30), time(14, 30), 1.5]);
  sheet.addRow(['D2', utc(1999, 12, 31), utc(2000, 1, 1, 0, 0, 5), time(23, 59, 59), time(2, 15)]);
  sheet.getColumn(2).numFmt = 'yyyy-mm-dd';
  sheet.getColumn(3).numFmt = 'dd/mm/yyyy hh:mm:ss';
  sheet.getColumn(4).numFmt = 'hh:mm:ss';
  sheet.getColumn(5).numFmt = '[h]:mm:ss';
}

/** The long text of the long-texts case's row `i` (the corpus test makes the same). */
export const longText = (i: number) => `${'These terms apply to every dealer of the network. '.repeat(80)}(row ${i})`;
export const LONG_TEXT_ROWS = 3000;
/** Cases about the XLSX archive alone, with no XLS copy (an XLS is not compressed; this one would weigh 12 MB). */
const XLSX_ONLY = new Set(['long-texts']);

const CASES: Record<string, Build> = {
  dates,
  'dates-1904': (book) => {
    book.properties.date1904 = true;
    dates(book);
  },
  // The same, its workbook part then given the extension list Excel 2010 and later write (see EDITS).
  'dates-1904-extension': (book) => {
    book.properties.date1904 = true;
    dates(book);
  },
  // Numbers no date can be made of under date and time formats: a sheet shows them as ####.
  'hash-dates': (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.addRow(['code', 'day', 'time']);
    sheet.addRow(['H1', -1, -0.25]);
    sheet.addRow(['H2', 46_082, 0.5]);
    sheet.getColumn(2).numFmt = 'yyyy-mm-dd';
    sheet.getColumn(3).numFmt = 'hh:mm:ss';
  },
  numbers: (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.addRow(['code', 'zip', 'share', 'big', 'plain', 'price']);
    // An integer beyond 2^53: the writer saves the double that holds it, 12345678901234567000.
    sheet.addRow(['N1', 123, 0.155, Number('12345678901234567890'), 0.1 + 0.2, 1234.5]);
    sheet.getCell('B2').numFmt = '00000';
    sheet.getCell('C2').numFmt = '0.0%';
    sheet.getCell('F2').numFmt = '#,##0.00';
  },
  booleans: (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.addRows([
      ['code', 'active'],
      ['B1', true],
      ['B2', false],
    ]);
  },
  'hidden-first': (book) => {
    const old = book.addWorksheet('Old', { state: 'hidden' });
    old.addRows([
      ['code', 'name'],
      ['OLD', 'stale row'],
    ]);
    const older = book.addWorksheet('Older', { state: 'veryHidden' });
    older.addRows([
      ['code', 'name'],
      ['OLDER', 'staler row'],
    ]);
    book.addWorksheet('Data').addRows([
      ['code', 'name'],
      ['H1', 'fresh row'],
    ]);
    // The active sheet is the visible one: an office suite shows a hidden active sheet when it saves.
    book.views = [{ x: 0, y: 0, width: 10_000, height: 20_000, firstSheet: 0, activeTab: 2, visibility: 'visible' }];
  },
  'instructions-first': (book) => {
    book.addWorksheet('Instructions').addRows([['How to fill this workbook'], ['Write one dealer a row in the Data sheet.']]);
    book.addWorksheet('Data').addRows([
      ['code', 'name'],
      ['I1', 'Dealer one'],
    ]);
  },
  'title-rows': (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.addRows([
      ['Dealers Spain: price list'],
      ['Exported on 1 March 2026'],
      [],
      ['code', 'name'],
      ['T1', 'first'],
      ['T2', 'second'],
    ]);
  },
  merged: (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.addRows([
      ['region', 'code', 'name'],
      ['North', 'M1', 'one'],
      [null, 'M2', 'two'],
      [null, 'M3', 'three'],
      ['South', 'M4'],
    ]);
    sheet.mergeCells('A2:A4');
    sheet.mergeCells('B5:C5');
  },
  errors: (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.addRow(['code', 'ratio', 'total']);
    sheet.addRow(['E1', { formula: '1/0', result: { error: '#DIV/0!' } }, { formula: 'B2*2' }]);
    sheet.addRow(['E2', { error: '#N/A' }, 5]);
  },
  // An array formula over three rows, saved without its values (LibreOffice computes them when it saves).
  'array-formula': (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.addRows([
      ['code', 'qty', 'double'],
      ['F1', 1],
      ['F2', 2],
      ['F3', 3],
    ]);
    // ExcelJS writes an array formula from these two fields, which its types leave out.
    const formula: ExcelJS.CellFormulaValue & { shareType: 'array'; ref: string } = {
      formula: 'B2:B4*2',
      shareType: 'array',
      ref: 'C2:C4',
    };
    sheet.getCell('C2').value = formula;
  },
  // Long texts that repeat but for their end, as terms pasted on every row: the sheet's parts
  // inflate to far more than 100 times their size, within a small total.
  'long-texts': (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.addRow(['code', 'name']);
    for (let i = 1; i <= LONG_TEXT_ROWS; i++) sheet.addRow([`L${i}`, longText(i)]);
  },
  'blank-rows': (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.getRow(1).values = ['code', 'name'];
    sheet.getRow(2).values = ['R2', 'second row'];
    sheet.getRow(5).values = ['R5', 'fifth row'];
    sheet.getRow(9).values = ['R9', 'ninth row'];
  },
  'header-spaces': (book) => {
    book.addWorksheet('Data').addRows([
      ['  code ', 'name  ', ' note'],
      ['S1', 'spaced', 'kept  as written '],
    ]);
  },
  'no-fit': (book) => {
    book.addWorksheet('Notes').addRows([['Read me first']]);
    book.addWorksheet('Prices').addRows([
      ['code', 'price'],
      ['P1', 10],
    ]);
  },
  'duplicate-header': (book) => {
    book.addWorksheet('Data').addRows([
      ['code', 'name', 'code'],
      ['U1', 'one', 'U1bis'],
    ]);
  },
  'empty-header': (book) => {
    book.addWorksheet('Data').addRows([
      ['code', null, 'name'],
      ['V1', 'orphan value', 'one'],
    ]);
  },
  // A sheet whose range spans the whole grid an XLS allows (IV65536) for 1,000 rows of cells.
  sparse: (book) => {
    const sheet = book.addWorksheet('Data');
    sheet.addRow(['code', 'name']);
    for (let i = 1; i <= 1000; i++) sheet.addRow([`Z${i}`, `row ${i}`]);
    sheet.getCell('IV65536').value = 'far';
  },
  'proto-header': (book) => {
    book.addWorksheet('Data').addRows([
      ['code', '__proto__'],
      ['W1', 'polluting'],
    ]);
  },
};

/** Excel's extension list as Excel 2016 writes it: an `x15:workbookPr` without `date1904` among others. */
const EXCEL_EXTENSIONS =
  '<extLst><ext uri="{140A7094-0E35-4892-8432-C4D2E57EDEB5}" xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main"><x15:workbookPr chartTrackingRefBase="1"/></ext><ext uri="{B58B0392-4F1F-4190-BB64-5DF3571DCE5F}" xmlns:xcalcf="http://schemas.microsoft.com/office/spreadsheetml/2018/calcfeatures"><xcalcf:calcFeatures><xcalcf:feature name="microsoft.com:RD"/></xcalcf:calcFeatures></ext></extLst>';

/** Replaces a part of a written workbook with what `edit` makes of it (with Info-ZIP's zip and unzip). */
function editPart(file: string, part: string, edit: (xml: string) => string): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-'));
  const xml = execFileSync('unzip', ['-p', file, part], { encoding: 'utf8' });
  fs.mkdirSync(path.join(dir, path.dirname(part)), { recursive: true });
  fs.writeFileSync(path.join(dir, part), edit(xml));
  execFileSync('zip', ['-q', file, part], { cwd: dir });
  fs.rmSync(dir, { recursive: true });
}

/** What is written by hand into a case's file after ExcelJS, before LibreOffice saves it again. */
const EDITS: Record<string, (file: string) => void> = {
  'dates-1904-extension': (file) =>
    editPart(file, 'xl/workbook.xml', (xml) => xml.replace('</workbook>', `${EXCEL_EXTENSIONS}</workbook>`)),
};

/** LibreOffice's copy of a workbook in another format, written to `target`. */
function convert(source: string, format: 'xlsx' | 'xls', target: string): void {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-'));
  execFileSync(SOFFICE, ['--headless', '--convert-to', format, '--outdir', out, source], { stdio: 'ignore' });
  fs.renameSync(path.join(out, `${path.basename(source, '.xlsx')}.${format}`), target);
  fs.rmSync(out, { recursive: true });
}

/**
 * The formats before Excel 97, which are not read, as SheetJS writes them: Excel 2.0 (BIFF2, a
 * bare record stream, as BIFF3–4 are) and Excel 5.0/95 (BIFF5, in a container; LibreOffice no
 * longer saves it).
 */
function writeOldFormats(): void {
  const rows = [
    ['code', 'name'],
    ['O1', 'old'],
  ];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Data');
  for (const biff of ['biff2', 'biff5'] as const) {
    fs.writeFileSync(path.join(here, `old-${biff}.xls`), new Uint8Array(XLSX.write(book, { type: 'array', bookType: biff })));
  }
  console.log('old formats: written');
}

// The cases named on the command line, or all of them (when run, not when a test reads longText).
if (process.argv[1] === import.meta.filename) {
  const wanted = process.argv.slice(2);
  for (const [name, build] of Object.entries(CASES).filter(([n]) => wanted.length === 0 || wanted.includes(n))) {
    const book = new ExcelJS.Workbook();
    build(book);
    const file = path.join(here, `${name}.xlsx`);
    fs.writeFileSync(file, new Uint8Array(await book.xlsx.writeBuffer()));
    EDITS[name]?.(file);
    if (fs.existsSync(SOFFICE)) {
      if (!XLSX_ONLY.has(name)) convert(file, 'xls', path.join(here, `${name}.xls`));
      convert(file, 'xlsx', path.join(here, `lo-${name}.xlsx`));
    }
    console.log(`${name}: written`);
  }
  if (wanted.length === 0 || wanted.includes('old-formats')) writeOldFormats();
}
