import { type CsvBody, countBreaks, isBlankRecord, readCsvBody, recordAt, rowsOfColumns } from './fast-csv.ts';
import { ParseError, type ParseLimits } from './limits.ts';
import { refuseWithoutModelFields } from './model-fields.ts';
import type { Note, ReadHints, Row, RowProblem } from './table.ts';
import { decodeText } from './text-encoding.ts';

/**
 * What was read from CSV text: the values by column (no row object is built unless asked, with
 * {@link rowsOf}: the CSV import has throughput targets), with each row's line in the file.
 */
export interface CsvRead {
  /** The header's field names, trimmed, in order (a nameless column without values left out). */
  fields: readonly string[];
  rowCount: number;
  /** One array per field, in order, each holding that field's value of every row, as written. */
  columns: string[][];
  delimiter: string;
  /** The line each row starts on, the header's being 1 (or 2 after a `sep=` line). */
  lines: number[];
  rowProblems: RowProblem[];
  notes: Note[];
  /** The line the first row after the header may start on, and the line after the text's last line break. */
  bodyLine: number;
  endLine: number;
}

/** The rows of what was read, built from its columns. */
export function rowsOf(read: CsvRead): Row[] {
  return rowsOfColumns(read.fields, read.columns, read.rowCount);
}

const CANDIDATES = [',', ';', '\t', '|'] as const;
const ONE_COLUMN = '\n';
const DELIMITER_NAMES: Record<string, string> = { ',': 'a comma', ';': 'a semicolon', '\t': 'a tab', '|': 'a pipe' };

/** Where the header starts: after Excel's `sep=;` line (which sets the delimiter) and blank lines. */
function preambleOf(text: string): { pos: number; line: number; delimiter: string | null; notes: Note[] } {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let delimiter: string | null = null;
  const notes: Note[] = [];
  const sep = /^sep=([^\r\n])(\r\n|\n|\r|$)/i.exec(text.slice(pos, pos + 8));
  if (sep?.[1]) {
    delimiter = sep[1];
    pos += sep[0].length;
    line++;
    const name = DELIMITER_NAMES[delimiter] ?? `"${delimiter}"`;
    notes.push({
      level: 'info',
      message: `The first line (${sep[0].trim()}) sets the delimiter, ${name}; the header is the line after it.`,
    });
  }
  for (const blank = /[ \t\u00a0]*(?:\r\n|\n|\r)/y; ; line++) {
    blank.lastIndex = pos;
    if (!blank.test(text)) break;
    pos = blank.lastIndex;
  }
  return { pos, line, delimiter, notes };
}

/**
 * The candidate whose header has more than one field and which most of the next records agree
 * with; none (a line feed, which never splits a line) when no candidate splits the header: the file
 * has one column, whose values may hold commas.
 */
function guessDelimiter(text: string, from: number): string {
  let best: string = ONE_COLUMN;
  let bestAgreeing = -1;
  for (const candidate of CANDIDATES) {
    const header = recordAt(text, from, candidate);
    if (!header || header.values.length < 2) continue;
    let agreeing = 0;
    for (let pos = header.next, seen = 0; pos < text.length && seen < 20; ) {
      const record = recordAt(text, pos, candidate);
      if (!record) break;
      pos = record.next;
      if (isBlankRecord(record.values)) continue;
      seen++;
      if (record.values.length === header.values.length) agreeing++;
    }
    if (agreeing > bestAgreeing) [best, bestAgreeing] = [candidate, agreeing];
  }
  return best;
}

const list = (items: readonly number[]) =>
  items.length < 2 ? String(items[0]) : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/** Refuses a header whose names cannot make rows: none at all, too many, `__proto__`, one name twice. */
function checkNames(names: readonly string[], limits: ParseLimits): void {
  if (names.every((name) => name === '')) throw new ParseError('The CSV file has no header line.');
  if (names.length > limits.maxColumns) throw new ParseError(`The file has more than ${limits.maxColumns} columns.`);
  const proto = names.indexOf('__proto__');
  if (proto !== -1) {
    throw new ParseError(`Column ${proto + 1} is named "__proto__" in the header, a name that cannot be read; rename it.`);
  }
  const seen = new Map<string, number[]>();
  names.forEach((name, i) => {
    if (name !== '') seen.set(name, [...(seen.get(name) ?? []), i + 1]);
  });
  for (const [name, columns] of seen) {
    if (columns.length > 1) throw new ParseError(`The header names "${name}" more than once (columns ${list(columns)}).`);
  }
}

/** The named columns: a nameless column holding a value is refused, one without any (a trailing delimiter) left out. */
function namedColumns(names: readonly string[], body: CsvBody): { fields: string[]; columns: string[][] } {
  const fields: string[] = [];
  const columns: string[][] = [];
  names.forEach((name, c) => {
    const column = body.columns[c] ?? [];
    if (name !== '') {
      fields.push(name);
      columns.push(column);
      return;
    }
    const r = column.findIndex((v) => v.trim() !== '');
    if (r !== -1) throw new ParseError(`Column ${c + 1} has no name in the header but holds values (row ${body.lines[r]}).`);
  });
  return { fields, columns };
}

/** Refuses a value longer than allowed, naming its row and column; looked for only when the longest record is longer. */
function checkLengths(
  fields: readonly string[],
  columns: readonly string[][],
  lines: readonly number[],
  limits: ParseLimits,
): void {
  columns.forEach((column, c) => {
    const r = column.findIndex((v) => v.length > limits.maxCellChars);
    if (r !== -1) {
      throw new ParseError(`Row ${lines[r]}, column ${fields[c]}: a value is longer than ${limits.maxCellChars} characters.`);
    }
  });
}

/** Refuses a text holding a NUL character, naming its line: no CSV text holds one (UTF-16 without its byte order mark does). */
function refuseNul(text: string): void {
  const at = text.indexOf('\0');
  if (at < 0) return;
  const line = countBreaks(text, 0, at) + 1;
  throw new ParseError(
    `Line ${line} holds a NUL character, which no CSV text holds: the file may be UTF-16 text without its byte order mark, or not a CSV file.`,
  );
}

/**
 * CSV text with a header line, read as written: the delimiter (comma, semicolon, tab or pipe) set
 * by a `sep=` first line or detected, any line break (CR LF, LF, CR, mixed), RFC 4180 quotes.
 */
export function readCsv(text: string, hints: ReadHints, limits: ParseLimits): CsvRead {
  refuseNul(text);
  const start = preambleOf(text);
  if (start.pos >= text.length) throw new ParseError('The file has no header line: it holds only blank lines.');
  const delimiter = start.delimiter ?? guessDelimiter(text, start.pos);
  const header = recordAt(text, start.pos, delimiter);
  if (!header) throw new ParseError('The header line has a quoted name that is never closed.');
  const names = header.values.map((name) => name.trim());
  checkNames(names, limits);
  refuseWithoutModelFields(names, hints, 'The header line holds');
  const bodyLine = start.line + countBreaks(text, start.pos, header.end) + 1;
  const body = readCsvBody(text, header.next, bodyLine, delimiter, names.length, limits.maxRows);
  if (body.lines.length === 0) throw new ParseError('The file has a header line but no rows.');
  const { fields, columns } = namedColumns(names, body);
  if (body.longest > limits.maxCellChars) checkLengths(fields, columns, body.lines, limits);
  const { lines, rowProblems, endLine } = body;
  return { fields, rowCount: lines.length, columns, delimiter, lines, rowProblems, notes: start.notes, bodyLine, endLine };
}

/** A CSV file's bytes read in their encoding (see {@link decodeText}), the log told which. */
export function readCsvFile(bytes: Uint8Array, hints: ReadHints, limits: ParseLimits): CsvRead {
  const { text, note } = decodeText(bytes);
  const read = readCsv(text, hints, limits);
  return { ...read, notes: [note, ...read.notes] };
}
