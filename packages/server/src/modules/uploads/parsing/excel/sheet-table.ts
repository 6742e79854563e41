import { isBlankText } from '../convert.ts';
import { ParseError, type ParseLimits } from '../limits.ts';
import type { Note, ReadHints, ReadTable, Row } from '../table.ts';
import { type CellRead, columnName } from './cell-value.ts';
import {
  type Header,
  headerMatch,
  headerOf,
  holdsValues,
  lackedFields,
  namesOf,
  OUTSIDE,
  type RowCells,
  UNNAMED,
} from './header.ts';
import { fillMerges, type MergeRange } from './merges.ts';

// A sheet's rows made into a table as they are read, in the sheet's order, whatever the workbook's
// format: the header row found below any title rows, each later row's values by field (cells
// outside the header's columns ignored), blank rows skipped with the sheet's own row numbers kept,
// merged ranges filled at the end (a sheet lists them after its cells).

/** Non-empty rows searched for the header row. */
export const HEADER_SEARCH_ROWS = 20;

/** What a sheet made: its table, or why it is not the sheet to read. */
export type SheetOutcome = { table: ReadTable } | { lacks: string[] } | { empty: true };

/** True when no value of a row shows anything. */
function isBlankRow(values: readonly unknown[]): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'string' || !isBlankText(v)) return false;
  }
  return true;
}

/** Drops the rows (rows read blank that no merged range filled) that show nothing. */
function dropBlankRows(rows: Row[], lines: number[], fields: readonly string[]): void {
  let kept = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] ?? {};
    if (isBlankRow(fields.map((f) => row[f]))) continue;
    rows[kept] = row;
    lines[kept] = lines[i] ?? 0;
    kept++;
  }
  rows.length = kept;
  lines.length = kept;
}

export class SheetTable {
  private header: Header | undefined;
  private headerLine = 0;
  private searched = 0;
  private best: { count: number; names: string[] } = { count: -1, names: [] };
  private firstLine = 0;
  private readonly rows: Row[] = [];
  private readonly lines: number[] = [];
  /** Rows holding only empty cells under the header: a merged range may still fill them. */
  private readonly blankLines: number[] = [];
  private readonly merges: MergeRange[] = [];

  constructor(
    readonly sheet: string,
    private readonly hints: ReadHints,
    private readonly limits: ParseLimits,
  ) {}

  /** The field position of a column once the header is known, {@link OUTSIDE} or {@link UNNAMED}; every column counts before. */
  slotOf(column: number): number {
    return this.header ? this.header.slotOf(column) : 0;
  }

  get headerFound(): boolean {
    return this.header !== undefined;
  }

  /** The header's named columns, ascending, once it is known. */
  get headerColumns(): readonly number[] {
    return this.header ? this.header.columns : [];
  }

  get fieldCount(): number {
    return this.header ? this.header.fields.length : 0;
  }

  /** A row before the header is known; false when the header was not found where it may be. */
  headerRow(line: number, cells: RowCells): boolean {
    if (!holdsValues(cells)) return true;
    if (this.firstLine === 0) this.firstLine = line;
    const names = namesOf(cells);
    const match = headerMatch(names.values(), this.hints);
    if (match.fits) {
      this.header = headerOf(names, this.sheet, this.limits);
      this.headerLine = line;
      return true;
    }
    if (match.count > this.best.count) this.best = { count: match.count, names: [...names.values()] };
    this.searched += 1;
    return this.searched < HEADER_SEARCH_ROWS;
  }

  /** A row under the header, its values by field position ('' where empty); false once a file's head has its rows. */
  dataRow(line: number, values: CellRead[], hadCells: boolean): boolean {
    if (isBlankRow(values)) {
      if (hadCells) this.blankLines.push(line);
      return true;
    }
    if (this.rows.length >= this.limits.maxRows) {
      throw new ParseError(`Sheet "${this.sheet}" has more than ${this.limits.maxRows} rows.`);
    }
    // The row's object is made at once: the values' array stays young garbage, cheap to collect.
    const fields = this.header?.fields ?? [];
    const row: Row = {};
    for (let slot = 0; slot < fields.length; slot++) row[fields[slot] ?? ''] = values[slot] ?? '';
    this.rows.push(row);
    this.lines.push(line);
    return this.hints.head === undefined || this.rows.length < this.hints.head.rows;
  }

  /** Refuses a value under an empty header name: it would have no field to go to. */
  unnamedValue(column: number, value: CellRead): void {
    if (typeof value === 'string' && isBlankText(value)) return;
    throw new ParseError(
      `Column ${columnName(column)} of sheet "${this.sheet}" holds values but its header (row ${this.headerLine}) is empty: name the column or clear it.`,
    );
  }

  merge(range: MergeRange): void {
    this.merges.push(range);
  }

  /** The sheet's table, or why it is not the sheet to read. */
  finish(): SheetOutcome {
    const { header } = this;
    if (!header) {
      if (this.firstLine === 0) return { empty: true };
      return { lacks: lackedFields(this.best.names, this.hints) };
    }
    const { rows, lines } = this;
    if (this.merges.length > 0) {
      fillMerges(this.merges, { rows, lines, blankLines: this.blankLines }, this.headerLine, header);
      dropBlankRows(rows, lines, header.fields);
      if (rows.length > this.limits.maxRows)
        throw new ParseError(`Sheet "${this.sheet}" has more than ${this.limits.maxRows} rows.`);
    }
    return { table: { fields: header.fields, rows, lines, rowProblems: [], notes: this.notes() } };
  }

  private notes(): Note[] {
    if (this.firstLine === 0 || this.firstLine >= this.headerLine) return [];
    const above = this.headerLine - 1;
    const message =
      above === 1
        ? `Row 1 of sheet "${this.sheet}" is above its header row and was ignored.`
        : `Rows 1–${above} of sheet "${this.sheet}" are above its header row and were ignored.`;
    return [{ level: 'info', message }];
  }
}

export { OUTSIDE, UNNAMED };
