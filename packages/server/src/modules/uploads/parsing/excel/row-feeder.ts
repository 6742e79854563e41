import type { CellRead } from './cell-value.ts';
import type { RowCells } from './header.ts';
import { OUTSIDE, type SheetTable, UNNAMED } from './sheet-table.ts';

/**
 * Hands a sheet's cells to its table row by row, as a reader meets them: every cell of a row while
 * the header is looked for, then only the cells under the header's columns.
 */
export class RowFeeder {
  private line = 0;
  private cells: RowCells = new Map();
  private values: CellRead[] = [];
  private hadCells = false;

  constructor(private readonly table: SheetTable) {}

  begin(line: number): void {
    this.line = line;
    this.hadCells = false;
    if (this.table.headerFound) this.values = [];
    else this.cells = new Map();
  }

  /** Whether a column's cells are read at all (those outside the header's span are not built). */
  wants(column: number): boolean {
    return this.table.slotOf(column) !== OUTSIDE;
  }

  put(column: number, value: CellRead): void {
    if (!this.table.headerFound) {
      this.cells.set(column, value);
      return;
    }
    const slot = this.table.slotOf(column);
    if (slot === UNNAMED) this.table.unnamedValue(column, value);
    else if (slot >= 0) {
      this.values[slot] = value;
      this.hadCells = true;
    }
  }

  /** Ends the row; false when the sheet need not be read further (its header is not where it may be, a file's head is read). */
  end(): boolean {
    if (!this.table.headerFound) return this.table.headerRow(this.line, this.cells);
    const width = this.table.fieldCount;
    const values = this.values;
    for (let i = 0; i < width; i++) if (values[i] === undefined) values[i] = '';
    return this.table.dataRow(this.line, values, this.hadCells);
  }
}
