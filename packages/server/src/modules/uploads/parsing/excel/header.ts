import { normaliseName } from '@gdb/shared/uploads/column-matcher';
import { isBlankText } from '../convert.ts';
import { ParseError, type ParseLimits } from '../limits.ts';
import type { ReadHints } from '../table.ts';
import { type CellRead, columnName, shownText } from './cell-value.ts';

// The header row of a sheet: which row it is (the first holding the data model's fields, below any
// title rows), and what each column under it becomes: a field, ignored, or a column that must stay
// empty because its header is.

/** A column under an empty header name: its values would have no field to go to. */
export const UNNAMED = -2;
/** A column outside the header's span (a note beside the table): ignored. */
export const OUTSIDE = -1;

/** A sheet row's cells by 0-based column, as read. */
export type RowCells = Map<number, CellRead>;

/** The header names of a row's cells, trimmed, by column. */
export function namesOf(cells: RowCells): Map<number, string> {
  const names = new Map<number, string>();
  for (const [column, value] of cells) {
    const name = shownText(value).trim();
    if (name !== '') names.set(column, name);
  }
  return names;
}

/** True when a row holds a value in some cell. */
export function holdsValues(cells: RowCells): boolean {
  for (const value of cells.values()) if (typeof value !== 'string' || !isBlankText(value)) return true;
  return false;
}

/** The fields a header row must hold: the required ones, or, when none is required, any one of the fields. */
function wanted(hints: ReadHints): { all: readonly string[]; any: boolean } {
  return hints.required.length > 0 ? { all: hints.required, any: false } : { all: hints.fields, any: true };
}

/** How many of the wanted fields a row's names hold, and whether that makes it the header row. */
export function headerMatch(names: Iterable<string>, hints: ReadHints): { count: number; fits: boolean } {
  if (hints.head) return headMatch(names, hints.head.names);
  if (hints.fields.length === 0) return { count: 0, fits: true };
  const held = new Set(names);
  const { all, any } = wanted(hints);
  const count = all.filter((f) => held.has(f)).length;
  return { count, fits: any ? count > 0 : count === all.length };
}

/** A file head's header row: one holding a name near a field (any row, with no names to look for). */
function headMatch(names: Iterable<string>, near: ReadonlySet<string>): { count: number; fits: boolean } {
  if (near.size === 0) return { count: 0, fits: true };
  let count = 0;
  for (const name of names) if (near.has(normaliseName(name))) count++;
  return { count, fits: count > 0 };
}

/** The wanted fields a row's names lack (for the message naming what each sheet lacks). */
export function lackedFields(names: Iterable<string>, hints: ReadHints): string[] {
  const held = new Set(names);
  return wanted(hints).all.filter((f) => !held.has(f));
}

/** The header's fields and what becomes of each column: its field's position, {@link UNNAMED} or {@link OUTSIDE}. */
export interface Header {
  fields: string[];
  /** The named columns, ascending. */
  columns: number[];
  slotOf: (column: number) => number;
}

/** The header a row's names make, or a refusal naming the name or column at fault. */
export function headerOf(names: Map<number, string>, sheet: string, limits: ParseLimits): Header {
  const columns = [...names.keys()].sort((a, b) => a - b);
  const first = columns[0] ?? 0;
  const last = columns[columns.length - 1] ?? -1;
  const fields: string[] = [];
  const slots = new Int32Array(last - first + 1).fill(UNNAMED);
  const seen = new Map<string, number>();
  for (const column of columns) {
    const name = names.get(column) ?? '';
    if (name === '__proto__') {
      throw new ParseError(
        `The header of sheet "${sheet}" names column ${columnName(column)} "__proto__", a name no field can have.`,
      );
    }
    const before = seen.get(name);
    if (before !== undefined) {
      const where = `columns ${columnName(before)} and ${columnName(column)}`;
      throw new ParseError(`The header of sheet "${sheet}" names "${name}" twice (${where}).`);
    }
    seen.set(name, column);
    slots[column - first] = fields.length;
    fields.push(name);
  }
  if (fields.length > limits.maxColumns) {
    throw new ParseError(`The header of sheet "${sheet}" has more than ${limits.maxColumns} columns.`);
  }
  return {
    fields,
    columns,
    slotOf: (column) => (column < first || column > last ? OUTSIDE : (slots[column - first] ?? OUTSIDE)),
  };
}
