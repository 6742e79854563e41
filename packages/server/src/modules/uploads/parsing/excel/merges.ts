import { isBlankText } from '../convert.ts';
import { ParseError } from '../limits.ts';
import type { Row } from '../table.ts';
import { parseRef } from './cell-value.ts';
import type { Header } from './header.ts';

// Merged ranges: a sheet shows the top-left cell's value across the whole range, so each cell of
// the range under the header gets it (a category written once beside several rows, for one).

/** A merged range: rows by their number, columns 0-based, both ends included. */
export interface MergeRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** Cells a sheet's merged ranges may fill in all: beyond, the sheet is refused rather than swell. */
const MAX_FILLS = 10_000_000;

/** The range an address pair names (`A5:A9`), or undefined when it is not one. */
export function parseMergeRange(ref: string): MergeRange | undefined {
  const [from = '', to = from] = ref.split(':');
  const a = parseRef(from);
  const b = parseRef(to);
  if (!a || !b) return undefined;
  return {
    top: Math.min(a.row, b.row),
    bottom: Math.max(a.row, b.row),
    left: Math.min(a.column, b.column),
    right: Math.max(a.column, b.column),
  };
}

/** The rows under the header as read, their lines, and the lines of rows read blank. */
export interface ReadRows {
  rows: Row[];
  lines: number[];
  blankLines: number[];
}

/** The index of the first line at or after `line` in an ascending list. */
export function firstAtOrAfter(sorted: readonly number[], line: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((sorted[mid] ?? 0) < line) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Gives each merged range's top-left value to the cells of its range in the rows under the header
 * (rows read blank included, since a range may be all they show); the rows stay in the sheet's order.
 */
export function fillMerges(merges: MergeRange[], read: ReadRows, headerLine: number, header: Header): void {
  const { fields } = header;
  const byLine = new Map<number, Row>();
  for (const [i, line] of read.lines.entries()) byLine.set(line, read.rows[i] ?? {});
  for (const line of read.blankLines) byLine.set(line, Object.fromEntries(fields.map((f) => [f, ''])));
  const lines = [...byLine.keys()].sort((a, b) => a - b);
  let fills = 0;
  for (const range of merges) {
    const source = range.top > headerLine ? byLine.get(range.top)?.[fields[header.slotOf(range.left)] ?? ''] : undefined;
    if (source === undefined || (typeof source === 'string' && isBlankText(source))) continue;
    const names: string[] = [];
    for (let column = range.left; column <= Math.min(range.right, range.left + 16_384); column++) {
      const name = fields[header.slotOf(column)];
      if (name !== undefined) names.push(name);
    }
    for (let i = firstAtOrAfter(lines, range.top); i < lines.length && (lines[i] ?? 0) <= range.bottom; i++) {
      const values = byLine.get(lines[i] ?? 0);
      if (!values) continue;
      for (const name of names) values[name] = source;
      fills += names.length;
      if (fills > MAX_FILLS) throw new ParseError(`The merged cells of the sheet cover more than ${MAX_FILLS} cells.`);
    }
  }
  read.rows.length = 0;
  read.lines.length = 0;
  for (const line of lines) {
    read.rows.push(byLine.get(line) ?? {});
    read.lines.push(line);
  }
}
