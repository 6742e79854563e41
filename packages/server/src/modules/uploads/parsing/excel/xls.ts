import * as XLSX from '@e965/xlsx';
import { isRecord } from '@gdb/shared/values/is-record';
import { errorMessage } from '../../../../platform/error-message.ts';
import { oldBiffVersion } from '../detect.ts';
import { ParseError, type ParseLimits } from '../limits.ts';
import type { ReadHints, ReadTable } from '../table.ts';
import { booleanCell, type CellRead, cellRef, errorCell, shownNumberCell } from './cell-value.ts';
import { chooseSheet, type SheetSource } from './choose-sheet.ts';
import { GENERAL, kindOf, type NumberFormat } from './number-format.ts';
import { RowFeeder } from './row-feeder.ts';
import type { SheetTable } from './sheet-table.ts';
import type { Visibility } from './workbook.ts';

// An XLS (BIFF) workbook, read by SheetJS and made into the same table an XLSX one makes: hidden
// sheets skipped, values as the sheet shows them in its date system, merged ranges filled. Its
// cells are kept by address (not dense rows), and read by the cells there are, never by the
// rectangle the sheet's range spans.

interface Located {
  row: number;
  column: number;
  cell: Record<string, unknown>;
}

/** The sheet's cells in reading order (row by row, left to right). */
function cellsOf(sheet: Record<string, unknown>): Located[] {
  const cells: Located[] = [];
  for (const [address, cell] of Object.entries(sheet)) {
    if (address.startsWith('!') || !isRecord(cell)) continue;
    const { r, c } = XLSX.utils.decode_cell(address);
    cells.push({ row: r + 1, column: c, cell });
  }
  return cells.sort((a, b) => a.row - b.row || a.column - b.column);
}

function formatOfCell(cell: Record<string, unknown>): NumberFormat {
  return typeof cell.z === 'string' ? { code: cell.z, kind: kindOf(cell.z) } : GENERAL;
}

function readValue(cell: Record<string, unknown>, ref: string, date1904: boolean): CellRead {
  const { t, v, w } = cell;
  const shown = typeof w === 'string' ? w : undefined;
  if (t === 'n' && typeof v === 'number') return shownNumberCell(v, shown, formatOfCell(cell), date1904, ref);
  if (t === 'b' && typeof v === 'boolean') return booleanCell(v, ref);
  if (t === 'e') return errorCell(shown ?? '#N/A', ref);
  if (t === 's' && typeof v === 'string') return v;
  return '';
}

function readSheet(sheet: Record<string, unknown>, table: SheetTable, date1904: boolean, limits: ParseLimits): void {
  const feeder = new RowFeeder(table);
  let line = 0;
  for (const { row, column, cell } of cellsOf(sheet)) {
    if (row !== line) {
      if (line > 0 && !feeder.end()) return;
      feeder.begin(row);
      line = row;
    }
    if (!feeder.wants(column)) continue;
    const ref = cellRef(column, row);
    const value = readValue(cell, ref, date1904);
    if (typeof value === 'string' && value.length > limits.maxCellChars) {
      throw new ParseError(`Cell ${ref} holds more than ${limits.maxCellChars} characters.`);
    }
    feeder.put(column, value);
  }
  if (line > 0) feeder.end();
  const merges = sheet['!merges'];
  if (!Array.isArray(merges)) return;
  for (const m of merges) {
    if (isRecord(m) && isRecord(m.s) && isRecord(m.e)) {
      const [top, left, bottom, right] = [m.s.r, m.s.c, m.e.r, m.e.c].map(Number);
      if ([top, left, bottom, right].every(Number.isInteger)) {
        table.merge({ top: (top ?? 0) + 1, left: left ?? 0, bottom: (bottom ?? 0) + 1, right: right ?? 0 });
      }
    }
  }
}

function visibilityOf(hidden: number | undefined): Visibility {
  return hidden === 1 ? 'hidden' : hidden === 2 ? 'veryHidden' : 'visible';
}

const OLD_FORMAT =
  'an old Excel format, which is not read: open it in Excel or LibreOffice and save it as an Excel workbook (.xlsx).';

/**
 * Refuses the Excel formats before Excel 97 (BIFF2–5): a bare Excel 2.0–4.0 stream, or an Excel
 * 5.0/95 container, whose workbook stream is named `Book` (`Workbook` from Excel 97 on).
 */
function refuseOldFormats(bytes: Uint8Array): void {
  const biff = oldBiffVersion(bytes);
  if (biff !== undefined) throw new ParseError(`The workbook is an Excel ${biff}.0 file (BIFF${biff}), ${OLD_FORMAT}`);
  let paths: unknown;
  try {
    paths = XLSX.CFB.read(bytes, { type: 'array' }).FullPaths;
  } catch {
    return; // not a container: the reader below says why
  }
  const streams = Array.isArray(paths) ? paths.map((p) => String(p).split('/').at(-1) ?? '') : [];
  if (streams.includes('Book') && !streams.includes('Workbook')) {
    throw new ParseError(`The workbook is an Excel 5.0/95 file (BIFF5), ${OLD_FORMAT}`);
  }
}

/**
 * Rows of each sheet SheetJS keeps for a file's head: its header among the first rows holding
 * values, and the head's rows under it, with room for blank rows between.
 */
const HEAD_SHEET_ROWS = 1000;

/** Reads an XLS workbook's sheet that holds the data model's fields. */
export function readXls(bytes: Uint8Array, hints: ReadHints, limits: ParseLimits): ReadTable {
  refuseOldFormats(bytes);
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, {
      type: 'array',
      dense: false,
      cellNF: true,
      cellDates: false,
      cellFormula: false,
      cellHTML: false,
      ...(hints.head ? { sheetRows: HEAD_SHEET_ROWS } : {}),
    });
  } catch (error) {
    throw new ParseError(`The workbook cannot be read: ${errorMessage(error)}`);
  }
  const date1904 = book.Workbook?.WBProps?.date1904 === true;
  const sources: SheetSource[] = book.SheetNames.map((name, i) => ({
    name,
    visibility: visibilityOf(book.Workbook?.Sheets?.[i]?.Hidden),
    read: (table) => {
      const sheet = book.Sheets[name];
      if (sheet) readSheet(sheet, table, date1904, limits);
    },
  }));
  return chooseSheet(sources, hints, limits);
}
