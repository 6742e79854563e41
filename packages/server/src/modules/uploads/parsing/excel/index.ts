import type { ParseLimits } from '../limits.ts';
import type { ReadHints, ReadTable } from '../table.ts';
import { readXls } from './xls.ts';
import { readXlsx } from './xlsx.ts';

/**
 * Reads a spreadsheet's sheet that holds the data model's fields as a table, values as the sheet
 * shows them; throws a ParseError naming the reason for a workbook it refuses.
 */
export function readWorkbook(bytes: Uint8Array, format: 'xlsx' | 'xls', hints: ReadHints, limits: ParseLimits): ReadTable {
  return format === 'xlsx' ? readXlsx(bytes, hints, limits) : readXls(bytes, hints, limits);
}
