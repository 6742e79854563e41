import type { Row } from './parse-text.ts';

/** What papaparse made of the start of the text: the delimiter, line break and field names to use. */
export interface CsvLayout {
  delimiter: string;
  linebreak: string;
  fields: readonly string[];
}

/** The values read, by column, and the length of the longest record's text (no value of a record is longer). */
export interface PlainRead {
  /** One array per field of the layout, in its order, each holding that field's value of every record. */
  columns: string[][];
  rowCount: number;
  longest: number;
}

/** The text needs papaparse's own handling (an irregular row, quotes it would read its own way). */
class Irregular extends Error {}

const QUOTE = 34;

/**
 * The rows of values read by column, each an object with the fields in order (an object literal, as
 * papaparse builds them: a later field of the same name wins).
 */
export function rowsOfColumns(fields: readonly string[], columns: readonly (readonly unknown[])[], rowCount: number): Row[] {
  const props = fields.map((f, i) => `${JSON.stringify(f)}: c[${i}][r]`).join(', ');
  const make = new Function('c', 'r', `return { ${props} };`) as (c: readonly (readonly unknown[])[], r: number) => Row;
  const rows = new Array<Row>(rowCount);
  for (let r = 0; r < rowCount; r++) rows[r] = make(columns, r);
  return rows;
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

/**
 * Reads the records of a CSV text the way papaparse does with `header: true`, `skipEmptyLines:
 * 'greedy'` and no typing, for texts in the common shape only: a header line without quotes, a
 * line feed or CR LF line break, every record with as many fields as the header, quoted fields
 * closed right before a delimiter or a line break. It answers null at the first thing outside that
 * shape, and papaparse reads the whole text instead; the tests hold the two to the same rows.
 * About twice as fast as papaparse: a record without quotes is split in one call.
 */
export function readPlainCsv(text: string, layout: CsvLayout, maxRows: number): PlainRead | null {
  const { delimiter, linebreak, fields } = layout;
  if (delimiter.length !== 1 || (linebreak !== '\n' && linebreak !== '\r\n')) return null;
  if (fields.length === 0 || fields.includes('__proto__')) return null;
  const crlf = linebreak === '\r\n';
  const delim = delimiter.charCodeAt(0);
  const n = text.length;

  /** The end of the line starting at `from` (before its line break), and where the next one starts. */
  const lineAt = (from: number): [end: number, next: number] => {
    const lf = text.indexOf('\n', from);
    if (lf === -1) return [n, n];
    if (!crlf) return [lf, lf + 1];
    // With CR LF line breaks a lone line feed is data to papaparse, read its own way.
    if (text.charCodeAt(lf - 1) !== 13 || lf - 1 < from) throw new Irregular();
    return [lf - 1, lf + 1];
  };

  /** The fields of a record holding quotes, from `from`; answers them and where the next record starts. */
  const quotedRecord = (from: number): [values: string[], next: number] => {
    const values: string[] = [];
    let i = from;
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        let value = '';
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) throw new Irregular();
          value += text.slice(j, q);
          if (text.charCodeAt(q + 1) === QUOTE) {
            value += '"';
            j = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        values.push(value);
      } else {
        let k = i;
        while (k < n) {
          const c = text.charCodeAt(k);
          if (c === delim || c === 10 || (crlf && c === 13 && text.charCodeAt(k + 1) === 10)) break;
          if (c === QUOTE) throw new Irregular();
          k++;
        }
        values.push(text.slice(i, k));
        i = k;
      }
      if (i >= n) return [values, n];
      const c = text.charCodeAt(i);
      if (c === delim) {
        i++;
        continue;
      }
      if (c === 10 && !crlf) return [values, i + 1];
      if (c === 13 && crlf && text.charCodeAt(i + 1) === 10) return [values, i + 2];
      // A closing quote followed by something else: papaparse has its own rules for that.
      throw new Irregular();
    }
  };

  try {
    const [headerEnd, bodyStart] = lineAt(0);
    const header = text.slice(0, headerEnd);
    if (header.includes('"') || header.split(delimiter).length !== fields.length || isBlank(header)) return null;
    const width = fields.length;
    const columns = fields.map((): string[] => []);
    let rowCount = 0;
    const add = (values: readonly string[]) => {
      for (let c = 0; c < width; c++) (columns[c] as string[]).push(values[c] as string);
      rowCount++;
    };
    let pos = bodyStart;
    let longest = 0;
    // The next quote at or after `pos`, looked for again only once passed (each quote is found once).
    let nextQuote = text.indexOf('"', pos);
    while (pos < n && rowCount <= maxRows) {
      if (nextQuote !== -1 && nextQuote < pos) nextQuote = text.indexOf('"', pos);
      const lf = text.indexOf('\n', pos);
      if (nextQuote !== -1 && (lf === -1 || nextQuote < lf)) {
        const [values, after] = quotedRecord(pos);
        longest = Math.max(longest, after - pos);
        pos = after;
        if (values.join('').trim() === '') continue;
        if (values.length !== width) throw new Irregular();
        add(values);
        continue;
      }
      const [end, next] = lineAt(pos);
      const line = text.slice(pos, end);
      if (line.length > longest) longest = line.length;
      pos = next;
      const first = line.charCodeAt(0);
      // A line of nothing but blanks and delimiters is skipped, as papaparse's 'greedy' does; a line
      // starting with anything else is not such a line.
      const maybeBlank =
        line.length === 0 || first === delim || first <= 32 || first === 0xa0 || first === 0x1680 || first >= 0x2000;
      if (maybeBlank && isBlank(line.split(delimiter).join(''))) continue;
      const values = line.split(delimiter);
      if (values.length !== width) throw new Irregular();
      add(values);
    }
    return { columns, rowCount, longest };
  } catch (error) {
    if (error instanceof Irregular) return null;
    throw error;
  }
}
