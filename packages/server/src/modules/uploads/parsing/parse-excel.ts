import * as XLSX from '@e965/xlsx';
import { unzipSync } from 'fflate';
import { ParseError, type ParseLimits } from './limits.ts';
import { messageOf, type Row } from './parse-text.ts';

/**
 * Refuses an XLSX archive whose entries claim more than the limit once inflated, before any
 * entry is inflated (the filter sees each entry's declared size and inflates none).
 */
export function checkArchive(bytes: Uint8Array, limits: ParseLimits): void {
  let total = 0;
  let workbook = false;
  try {
    unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        if (file.name === 'xl/workbook.xml' || file.name === 'xl/workbook.bin') workbook = true;
        if (file.originalSize > 50 * file.size + 1024 * 1024) {
          throw new ParseError('The workbook is compressed suspiciously well (a zip bomb?).');
        }
        return false;
      },
    });
  } catch (error) {
    if (error instanceof ParseError) throw error;
    throw new ParseError(`The workbook cannot be read: ${messageOf(error)}`);
  }
  if (!workbook) throw new ParseError('The archive is not an Excel workbook.');
  if (total > limits.maxInflatedBytes) throw new ParseError('The workbook is too large once decompressed.');
}

/** The first sheet of an XLSX or XLS workbook, its first row as the header. */
export function parseExcel(bytes: Uint8Array, format: 'xlsx' | 'xls', limits: ParseLimits): Row[] {
  if (format === 'xlsx') checkArchive(bytes, limits);
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(bytes, { type: 'array', dense: true, cellFormula: false, cellHTML: false, sheetRows: limits.maxRows + 2 });
  } catch (error) {
    throw new ParseError(`The workbook cannot be read: ${messageOf(error)}`);
  }
  const name = book.SheetNames[0];
  const sheet = name ? book.Sheets[name] : undefined;
  if (!sheet) throw new ParseError('The workbook has no sheet.');
  const rows = XLSX.utils.sheet_to_json<Row>(sheet, { defval: '', raw: true, blankrows: false });
  if (rows.length > limits.maxRows) throw new ParseError(`The file has more than ${limits.maxRows} rows.`);
  for (const [i, row] of rows.entries()) {
    if (Object.keys(row).length > limits.maxColumns)
      throw new ParseError(`Row ${i + 1} has more than ${limits.maxColumns} columns.`);
  }
  return rows;
}
