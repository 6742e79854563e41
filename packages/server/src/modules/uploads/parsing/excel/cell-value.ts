import { Cell } from '../table.ts';
import { formatted, generalText, isoOfSerial, type NumberFormat } from './number-format.ts';

// A cell's value as the sheet shows it, whatever the workbook's format: text as a plain string, and
// numbers, dates, booleans and errors as a Cell that says what the sheet displays and where it is.

/** A read cell: '' when empty, its text, or a {@link Cell}. */
export type CellRead = string | Cell;

const columnNames: string[] = [];

/** The column letters of a 0-based column index (0 → A, 26 → AA). */
export function columnName(index: number): string {
  if (index < 1024) {
    columnNames[index] ??= lettersOf(index);
    return columnNames[index] ?? '';
  }
  return lettersOf(index);
}

function lettersOf(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** A cell's address (`C7`) from its 0-based column and its row number. */
export function cellRef(column: number, row: number): string {
  return `${columnName(column)}${row}`;
}

/** The 0-based column and the row number of an address (`C7`), or undefined when it is not one. */
export function parseRef(ref: string): { column: number; row: number } | undefined {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref);
  if (!match) return undefined;
  let column = 0;
  for (const ch of (match[1] ?? '').toUpperCase()) column = column * 26 + (ch.charCodeAt(0) - 64);
  return { column: column - 1, row: Number(match[2]) };
}

/** Texts a format made of numbers it met, by the number's text: columns repeat their values. */
const shownCache = new WeakMap<NumberFormat, Map<string, { iso: string | undefined; shown: string }>>();
const CACHED_PER_FORMAT = 50_000;

/** What a format shows of a number (and the ISO text of its date, for a date format). */
function showing(raw: string, value: number, format: NumberFormat, date1904: boolean) {
  let cache = shownCache.get(format);
  const known = cache?.get(raw);
  if (known) return known;
  const { kind } = format;
  const iso = isDated(kind) ? isoOfSerial(value, kind, date1904) : undefined;
  const shown =
    kind === 'general' || (isDated(kind) && iso === undefined) ? generalText(value, raw) : formatted(format.code, value);
  const made = { iso, shown };
  if (!cache) {
    cache = new Map();
    shownCache.set(format, cache);
  }
  if (cache.size < CACHED_PER_FORMAT) cache.set(raw, made);
  return made;
}

function isDated(kind: NumberFormat['kind']): kind is 'date' | 'datetime' | 'time' | 'elapsed' {
  return kind === 'date' || kind === 'datetime' || kind === 'time' || kind === 'elapsed';
}

/**
 * A number cell: a date, date-time, time or duration when its format says so, else a number with
 * its shown text; under a date format, a number no date can be made of (negative, or past
 * 9999-12-31) is an error of its row, as the `####` a sheet shows for it.
 */
export function numberCell(raw: string, format: NumberFormat, date1904: boolean, ref: string): Cell {
  const value = Number(raw);
  if (format.kind === 'general') return new Cell({ kind: 'number', value, shown: generalText(value, raw), raw, ref });
  const { iso, shown } = showing(raw, value, format, date1904);
  if (iso !== undefined) return new Cell({ kind: 'date', iso, shown, ref });
  if (isDated(format.kind)) {
    return new Cell({
      kind: 'error',
      problem: `${ref} holds ${shown}, which its date or time format cannot show (a sheet shows ####)`,
      ref,
    });
  }
  return new Cell({ kind: 'number', value, shown, raw, ref });
}

/** A number cell whose text the reading library already formatted (XLS). */
export function shownNumberCell(value: number, shown: string | undefined, format: NumberFormat, date1904: boolean, ref: string) {
  const raw = String(value);
  const cell = numberCell(raw, format, date1904, ref);
  if (shown === undefined || cell.value.kind !== 'number' || format.kind === 'general') return cell;
  return new Cell({ kind: 'number', value, shown, raw, ref });
}

export function booleanCell(value: boolean, ref: string): Cell {
  return new Cell({ kind: 'boolean', value, shown: value ? 'TRUE' : 'FALSE', ref });
}

export function errorCell(error: string, ref: string): Cell {
  return new Cell({ kind: 'error', problem: `${ref} holds the error ${error}`, ref });
}

export function unsavedFormulaCell(ref: string): Cell {
  return new Cell({ kind: 'error', problem: `${ref} is a formula with no saved value`, ref });
}

/**
 * A cell saved as an ISO date (`t="d"`) as its format shows it: the date under a date format, the
 * time under a time format, both under a date-time format; else its date, with its time when the
 * time is not midnight.
 */
export function isoDateCell(text: string, format: NumberFormat, ref: string): Cell {
  const match = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2}))?/.exec(text.trim());
  if (!match) return errorCell(`"${text}" (not a date)`, ref);
  const [, day = '', time] = match;
  const iso = isoOfKind(format.kind, day, time ?? '00:00:00');
  return new Cell({ kind: 'date', iso, shown: iso, ref });
}

function isoOfKind(kind: NumberFormat['kind'], day: string, time: string): string {
  if (kind === 'date') return day;
  if (kind === 'time') return time;
  return kind === 'datetime' || time !== '00:00:00' ? `${day}T${time}` : day;
}

/** The text a read cell shows, for finding the header row. */
export function shownText(value: CellRead): string {
  if (typeof value === 'string') return value;
  const cell = value.value;
  return cell.kind === 'error' ? '' : cell.shown;
}
