// CSV as the output files are written, in the server (modules/imports/sink-files.ts) and in the
// isolate (a port's rows as a file, column-tables.ts): byte for byte as papaparse's `unparse` writes
// it with the formula pattern below and line feeds, in UTF-8. The server refuses a file from the
// isolate that is not UTF-8, not well-formed CSV or has a cell a spreadsheet would read as a
// formula, whatever a component did to this code. It runs in both places: no Node API here.
import { floor, max, round, StringCtor, toJson, Uint8ArrayCtor } from './base.ts';
import type { CsvFile } from './types.d.ts';

/**
 * A cell a spreadsheet could read as a formula: one starting with one of these characters, whatever
 * follows (papaparse's own pattern, `^[=+\-@\t\r].*$`, lets a cell with a line break through).
 */
export const FORMULA = /^[=+\-@\t\r]/;
/** A cell holding a line break, a quote, a byte order mark or the delimiter is quoted, as is one starting or ending with a space. */
const NEEDS_QUOTES = /[\r\n"\uFEFF,]/;

/**
 * One CSV cell: missing values empty, nested ones as JSON; text a spreadsheet would read as a
 * formula gets a leading quote; quotes are doubled.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return StringCtor(value);
  let text = typeof value === 'string' ? value : (toJson(value) ?? '');
  let quote = false;
  if (FORMULA.test(text)) {
    text = `'${text}`;
    quote = true;
  }
  if (!quote && !NEEDS_QUOTES.test(text) && text.charCodeAt(0) !== 32 && text.charCodeAt(text.length - 1) !== 32) {
    return text;
  }
  return `"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
}

/** A text whose first or last character makes `csvCell` look closer at it (a formula, a space). */
function edgy(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 || first === 32) return true;
  return text.charCodeAt(text.length - 1) === 32;
}

/** ASCII characters that make a cell quoted: line feed, carriage return, quote, comma. */
const QUOTED = new Uint8ArrayCtor(128);
QUOTED[10] = 1;
QUOTED[13] = 1;
QUOTED[34] = 1;
QUOTED[44] = 1;

/**
 * Writes a text's UTF-8 bytes at `at` (as the server's Buffer.from encodes it: a lone surrogate
 * as U+FFFD) and answers where they end; with `plain`, answers -1 instead at a character that
 * makes a cell quoted. `out` has room for three bytes per character.
 */
export function putText(out: Uint8Array, at: number, text: string, plain: boolean): number {
  let p = at;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) {
      if (plain && QUOTED[c] === 1) return -1;
      out[p++] = c;
      continue;
    }
    if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = text.charCodeAt(i + 1);
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        const point = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        out[p++] = 0xf0 | (point >> 18);
        out[p++] = 0x80 | ((point >> 12) & 63);
        out[p++] = 0x80 | ((point >> 6) & 63);
        out[p++] = 0x80 | (point & 63);
        i++;
        continue;
      }
      c = 0xfffd;
    } else if (plain && c === 0xfeff) {
      return -1;
    }
    out[p++] = 0xe0 | (c >> 12);
    out[p++] = 0x80 | ((c >> 6) & 63);
    out[p++] = 0x80 | (c & 63);
  }
  return p;
}

/** Writes the decimal digits of a whole number 0 ≤ n < 1e15 at `at`; answers where they end. */
function putDigits(out: Uint8Array, at: number, n: number): number {
  let end = at;
  for (let rest = n; rest >= 10; rest = floor(rest / 10)) end++;
  let p = end;
  let rest = n;
  do {
    out[p--] = 48 + (rest % 10);
    rest = floor(rest / 10);
  } while (rest > 0);
  return end + 1;
}

/**
 * Writes a number as String(number) writes it, and answers where it ends. Whole numbers and
 * amounts in hundredths (a double equal to k / 100 below 1e13: its shortest form has those digits)
 * are written digit by digit; any other number through String.
 */
function putNumber(out: Uint8Array, at: number, value: number): number {
  const size = value < 0 ? -value : value;
  if (size < 1e13) {
    let p = at;
    const cents = round(size * 100);
    if (cents / 100 === size) {
      if (value < 0) out[p++] = 45;
      const whole = floor(cents / 100);
      p = putDigits(out, p, whole);
      const frac = cents - whole * 100;
      if (frac !== 0) {
        out[p++] = 46;
        out[p++] = 48 + floor(frac / 10);
        if (frac % 10 !== 0) out[p++] = 48 + (frac % 10);
      }
      return p;
    }
  }
  return putText(out, at, StringCtor(value), false);
}

/**
 * Writes one plain value's CSV cell (and room for the separator after it) into the file being
 * written, `file.out` from `file.p`. A text is looked at as its bytes are written, and written
 * again through `csvCell` when it needs quoting or escaping.
 */
export function putCell(file: CsvFile, value: string | number | boolean | null): void {
  if (typeof value === 'string') {
    if (file.p + 3 * value.length + 8 > file.out.length) file.out = grown(file.out, file.p, 3 * value.length + 8);
    const end = value.length === 0 || edgy(value) ? -1 : putText(file.out, file.p, value, true);
    if (end >= 0) {
      file.p = end;
    } else if (value.length > 0) {
      const cell = csvCell(value);
      if (file.p + 3 * cell.length + 8 > file.out.length) file.out = grown(file.out, file.p, 3 * cell.length + 8);
      file.p = putText(file.out, file.p, cell, false);
    }
    return;
  }
  if (file.p + 40 > file.out.length) file.out = grown(file.out, file.p, 40);
  if (typeof value === 'number') file.p = putNumber(file.out, file.p, value);
  else if (value !== null) file.p = putText(file.out, file.p, value ? 'true' : 'false', false);
}

/**
 * A file's bytes once written: the buffer itself when it is nearly full, else a copy of what was
 * written (so the rest of a large buffer is not kept with it).
 */
export function writtenBytes(file: CsvFile): Uint8Array {
  return file.p >= 0.9 * file.out.length ? file.out.subarray(0, file.p) : file.out.slice(0, file.p);
}

/**
 * The CSV file of columns of values, a line per row: a value that is not plain (text, number,
 * boolean, null) is written as its JSON, a missing one empty. `room` is the bytes to begin with.
 */
export function csvOfColumns(
  columns: readonly string[],
  data: readonly (readonly unknown[])[],
  rows: number,
  room: number,
): Uint8Array {
  const header = columns.map(csvCell).join(',');
  const file: CsvFile = { out: new Uint8ArrayCtor(3 * header.length + room + 64), p: 0, limit: Infinity };
  file.p = putText(file.out, 0, header, false);
  file.out[file.p++] = 10;
  const last = data.length - 1;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c <= last; c++) {
      putCell(file, plainValue((data[c] as readonly unknown[])[r]));
      file.out[file.p++] = c === last ? 10 : 44;
    }
  }
  return writtenBytes(file);
}

/** A value as `putCell` takes it: as it is when plain, its JSON otherwise, and null when missing. */
function plainValue(value: unknown): string | number | boolean | null {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return value === undefined ? null : (toJson(value) ?? null);
}

/** A bigger buffer holding the first `used` bytes of `out`, with room for at least `more` after them. */
function grown(out: Uint8Array, used: number, more: number): Uint8Array {
  const bigger = new Uint8ArrayCtor(max(used + more, 2 * out.length));
  bigger.set(out.subarray(0, used));
  return bigger;
}
