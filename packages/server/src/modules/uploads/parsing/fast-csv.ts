import { isBlankText } from './convert.ts';
import { ParseError } from './limits.ts';
import type { Row, RowProblem } from './table.ts';

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** One record as the general reader reads it. */
export interface CsvRecord {
  values: string[];
  /** Where the record's text ends (its line break, or the end of the text). */
  end: number;
  /** Where the next record starts. */
  next: number;
  /** A quoted value was followed by more text before its delimiter (`"x"y`). */
  stray: boolean;
}

/** The end of an unquoted value starting at `from`: its delimiter, a line break or the end of the text. */
function endOfValue(text: string, from: number, delim: number): number {
  let k = from;
  for (const n = text.length; k < n; k++) {
    const c = text.charCodeAt(k);
    if (c === delim || c === LF || c === CR) break;
  }
  return k;
}

/**
 * Reads the record starting at `from` with its quotes (RFC 4180: a value in quotes may hold
 * delimiters, line breaks and doubled quotes; a quote inside an unquoted value is kept as it is).
 * Any line break outside quotes ends the record: CR LF, LF or a lone CR. Null when a quoted value
 * is never closed.
 */
export function recordAt(text: string, from: number, delimiter: string): CsvRecord | null {
  const delim = delimiter.charCodeAt(0);
  const n = text.length;
  const values: string[] = [];
  let stray = false;
  let i = from;
  for (;;) {
    let value = '';
    if (text.charCodeAt(i) === QUOTE) {
      for (let j = i + 1; ; ) {
        const q = text.indexOf('"', j);
        if (q === -1) return null;
        value += text.slice(j, q);
        if (text.charCodeAt(q + 1) !== QUOTE) {
          i = q + 1;
          break;
        }
        value += '"';
        j = q + 2;
      }
      const k = endOfValue(text, i, delim);
      if (k > i) stray = true;
      value += text.slice(i, k);
      i = k;
    } else {
      const k = endOfValue(text, i, delim);
      value = text.slice(i, k);
      i = k;
    }
    values.push(value);
    if (i >= n) return { values, end: n, next: n, stray };
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return { values, end: i, next: c === CR && text.charCodeAt(i + 1) === LF ? i + 2 : i + 1, stray };
    i++;
  }
}

/** The line breaks between `from` and `to` (CR LF, LF or a lone CR, each one line). */
export function countBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) count++;
  }
  return count;
}

/** A record of blank values only, which is skipped as a blank line is. */
export function isBlankRecord(values: readonly string[]): boolean {
  return values.every(isBlankText);
}

/** A line with nothing but blanks and delimiters, tested cheaply first on its first character. */
function isBlankLine(line: string, delimiter: string): boolean {
  const first = line.charCodeAt(0);
  const maybe =
    line.length === 0 || line[0] === delimiter || first <= 32 || first === 0xa0 || first === 0x1680 || first >= 0x2000;
  return maybe && line.split(delimiter).join('').trim() === '';
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Distinct texts remembered by all the columns of a file together, and by one column at most. */
const SHARED_TEXTS = 65_536;
const SHARED_TEXTS_PER_COLUMN = 4096;

/**
 * One string for each distinct text of a column while it has few (codes, cities, dates), up to
 * `limit` of them: the strings each record's split made are then left at once, not kept to the
 * end of the read. Strings kept are what the garbage collector copies and moves: for a 20 MiB
 * file of such columns its work took about half of the parse. A column of more distinct texts
 * keeps its own strings.
 */
function sharedTexts(limit: number): (text: string) => string {
  let seen: Map<string, string> | null = new Map();
  return (text) => {
    if (seen === null) return text;
    const kept = seen.get(text);
    if (kept !== undefined) return kept;
    if (seen.size < limit) seen.set(text, text);
    else seen = null;
    return text;
  };
}

/** The records after the header, by column, with the line each starts on. */
export interface CsvBody {
  /** One array per header field, each holding that field's value of every record ('' where a record is short). */
  columns: string[][];
  /** The line each record starts on. */
  lines: number[];
  rowProblems: RowProblem[];
  /** The number the line after the text's last line break has. */
  endLine: number;
  /** The length of the longest record's text: no value of the file is longer. */
  longest: number;
}

/**
 * Reads the records from `from` (which starts line `firstLine`) by column. A line without quotes,
 * the common case, is split in one call; a record holding quotes goes through {@link recordAt}.
 * Blank records (nothing but blanks and delimiters) are skipped, their lines still counted. A record
 * with more or fewer values than the header has fields is a problem of its row.
 */
export function readCsvBody(
  text: string,
  from: number,
  firstLine: number,
  delimiter: string,
  width: number,
  maxRows: number,
): CsvBody {
  const n = text.length;
  const columns = Array.from({ length: width }, (): string[] => []);
  const perColumn = Math.min(SHARED_TEXTS_PER_COLUMN, Math.floor(SHARED_TEXTS / Math.max(width, 1)));
  const shared = Array.from({ length: width }, () => sharedTexts(perColumn));
  const lines: number[] = [];
  const rowProblems: RowProblem[] = [];
  const add = (values: readonly string[], at: number) => {
    if (values.length !== width) {
      rowProblems.push({
        line: at,
        message: `Row ${at}: ${plural(values.length, 'value')} where the header has ${plural(width, 'field')}.`,
      });
    }
    for (let c = 0; c < width; c++) (columns[c] as string[]).push((shared[c] as (text: string) => string)(values[c] ?? ''));
    if (lines.push(at) > maxRows) throw new ParseError(`The file has more than ${maxRows} rows.`);
  };
  let pos = from;
  let line = firstLine;
  let longest = 0;
  // The next quote and CR at or after `pos`, looked for again only once passed (each is found once).
  let nextQuote = text.indexOf('"', pos);
  let nextCr = text.indexOf('\r', pos);
  while (pos < n) {
    if (nextQuote !== -1 && nextQuote < pos) nextQuote = text.indexOf('"', pos);
    if (nextCr !== -1 && nextCr < pos) nextCr = text.indexOf('\r', pos);
    let end = text.indexOf('\n', pos);
    if (end === -1) end = n;
    let next = end + 1;
    if (nextCr !== -1 && nextCr < end) {
      next = nextCr + 1 === end ? end + 1 : nextCr + 1;
      end = nextCr;
    }
    if (nextQuote !== -1 && nextQuote < end) {
      const record = recordAt(text, pos, delimiter);
      if (!record) throw new ParseError(`Row ${line}: a quoted value is never closed.`);
      const at = line;
      // Line breaks inside its quotes, looked for only when the record goes past its first line.
      line += (record.end > end ? countBreaks(text, pos, record.end) : 0) + 1;
      longest = Math.max(longest, record.end - pos);
      pos = record.next;
      if (isBlankRecord(record.values)) continue;
      if (record.stray)
        rowProblems.push({ line: at, message: `Row ${at}: a quoted value is followed by more text before its delimiter.` });
      add(record.values, at);
      continue;
    }
    const text1 = text.slice(pos, end);
    if (text1.length > longest) longest = text1.length;
    pos = next;
    if (!isBlankLine(text1, delimiter)) add(text1.split(delimiter), line);
    line++;
  }
  return { columns, lines, rowProblems, endLine: line, longest };
}

/**
 * The rows of values read by column, each an object with the fields in order (the header's names
 * are distinct, so each field is set once).
 */
export function rowsOfColumns(fields: readonly string[], columns: readonly (readonly unknown[])[], rowCount: number): Row[] {
  const props = fields.map((f, i) => `${JSON.stringify(f)}: c[${i}][r]`).join(', ');
  const make = new Function('c', 'r', `return { ${props} };`) as (c: readonly (readonly unknown[])[], r: number) => Row;
  const rows = new Array<Row>(rowCount);
  for (let r = 0; r < rowCount; r++) rows[r] = make(columns, r);
  return rows;
}
