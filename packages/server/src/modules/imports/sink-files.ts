import { isUtf8 } from 'node:buffer';
import * as XLSX from '@e965/xlsx';
import type { DataSink } from '@gdb/shared/pipelines/pipeline.schemas';
import { isRecord } from '@gdb/shared/values/is-record';
import { type ColumnTable, rowsOfTable, tableLength } from '../../platform/files/row-tables.ts';
import { csvOfColumns, FORMULA } from '../../runtime/sandbox/csv-writer.ts';
import { RunStepError } from './run-errors.ts';

/** An output file ready to store. */
export interface SinkFile {
  bytes: Uint8Array;
  contentType: string;
  extension: string;
}

const CONTENT_TYPES: Record<DataSink['format'], { contentType: string; extension: string }> = {
  CSV: { contentType: 'text/csv', extension: '.csv' },
  JSON: { contentType: 'application/json', extension: '.json' },
  XLSX: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: '.xlsx' },
};

/** Every field name of the rows, in the order they first appear. */
export function columnsOf(rows: readonly Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  // Rows mostly have the fields of the row before, in the same order: those add nothing new.
  let previous: string[] = [];
  for (const row of rows) {
    const keys = Object.keys(row);
    if (sameKeys(keys, previous)) continue;
    for (const key of keys) seen.add(key);
    previous = keys;
  }
  return [...seen];
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A cell as text or number: nested values as JSON, missing ones empty. */
function cell(value: unknown): string | number | boolean {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** The CSV file of the rows: a header line, then one line per row, each ended by a line feed. */
function csvBytes(columns: readonly string[], rows: readonly Record<string, unknown>[]): Buffer {
  // Without columns every line is empty (and there is no header line).
  if (columns.length === 0) return Buffer.from('\n'.repeat(Math.max(rows.length, 1)));
  return csvBytesOfTable({ columns: [...columns], data: columns.map((c) => rows.map((row) => row[c])) });
}

/**
 * The CSV file of a column table: the same bytes as `csvBytes` of its rows, without building them,
 * and the same as the sandbox writes (runtime/sandbox/csv-writer.ts: papaparse's `unparse` with
 * `escapeFormulae: FORMULA` and `newline: '\n'`, the tests hold the two together).
 */
export function csvBytesOfTable(table: ColumnTable): Buffer {
  const n = tableLength(table);
  const bytes = csvOfColumns(table.columns, table.data, n, n * 8 * table.columns.length);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Table rows of an output value: an array of objects, or one object; anything else is refused. */
export function tableRows(value: unknown, sinkName: string): Record<string, unknown>[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((row, index) => {
    if (isRecord(row)) return row;
    throw new RunStepError(`Data sink ${sinkName}: item ${index + 1} of the output is not an object.`);
  });
}

/**
 * The bytes of one output file. CSV cells that a spreadsheet would read as a formula are escaped;
 * XLSX holds one sheet named after the sink.
 */
export function writeSinkFile(rows: readonly Record<string, unknown>[], sink: Pick<DataSink, 'name' | 'format'>): SinkFile {
  const { contentType, extension } = CONTENT_TYPES[sink.format];
  if (sink.format === 'JSON') return { bytes: Buffer.from(JSON.stringify(rows)), contentType, extension };
  const columns = columnsOf(rows);
  if (sink.format === 'CSV') return { bytes: csvBytes(columns, rows), contentType, extension };
  const table = rows.map((row) => columns.map((c) => cell(row[c])));
  const sheet = XLSX.utils.aoa_to_sheet([columns, ...table]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, sink.name.replace(/[\\/?*[\]:]/g, '_').slice(0, 31) || 'Sheet1');
  const bytes: unknown = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true });
  if (!(bytes instanceof Uint8Array)) throw new Error('The spreadsheet writer answered no bytes.');
  return { bytes, contentType, extension };
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
/** First characters of a cell `FORMULA` looks at: = + - @ tab CR. */
const FORMULA_CHARS = [61, 43, 45, 64, 9, 13];
/** FORMULA_CHARS as a table of bytes. */
const FORMULA_START = new Uint8Array(128);
for (const c of FORMULA_CHARS) FORMULA_START[c] = 1;

/** A cell a spreadsheet would read as a formula: `FORMULA`, less numbers (written as they are, -3 is no formula). */
function isFormula(cell: string): boolean {
  return FORMULA.test(cell) && String(Number(cell)) !== cell;
}

/**
 * The number of records (header line excluded) of a CSV file written elsewhere (by a component's
 * sandbox), or null unless it is what this module's writer writes: UTF-8, comma-separated cells,
 * quoted ones with doubled quotes, every line ended by a line feed and as wide as the header, and
 * no cell a spreadsheet would read as a formula (`FORMULA`, the escaped ones start with a quote).
 */
export function csvRecords(file: Uint8Array): number | null {
  const lines = csvLines(file, null);
  return lines === null ? null : lines.count - 1;
}

/**
 * A run of whole lines of such a file, checked as `csvRecords` checks a file: how many lines, and
 * how wide they are; null unless every line is well-formed, ends with a line feed, and is `width`
 * cells wide (as wide as the first line when `width` is null: the run starts with the header).
 * Read byte by byte: quotes, commas and line feeds are single bytes in UTF-8.
 */
export function csvLines(run: Uint8Array, width: number | null): { count: number; width: number } | null {
  const bytes = Buffer.from(run.buffer, run.byteOffset, run.byteLength);
  if (!isUtf8(bytes)) return null;
  const n = bytes.length;
  let i = 0;
  let lines = 0;
  let wide = width ?? -1;
  let cells = 0;
  for (;;) {
    const start = i;
    if (bytes[i] === QUOTE) {
      for (let j = i + 1; ; ) {
        const q = bytes.indexOf(QUOTE, j);
        if (q === -1) return null;
        if (bytes[q + 1] === QUOTE) {
          j = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      if (FORMULA_START[bytes[start + 1] ?? 0] && isFormula(bytes.toString('utf8', start + 1, i - 1).replaceAll('""', '"'))) {
        return null;
      }
    } else {
      for (; i < n; i++) {
        const c = bytes[i];
        if (c === COMMA || c === LF) break;
        if (c === QUOTE) return null;
      }
      if (FORMULA_START[bytes[start] ?? 0] && isFormula(bytes.toString('utf8', start, i))) return null;
    }
    cells++;
    const c = bytes[i];
    if (c === COMMA) {
      i++;
      continue;
    }
    if (c !== LF) return null;
    if (wide === -1) wide = cells;
    else if (cells !== wide) return null;
    lines++;
    cells = 0;
    i++;
    if (i === n) return { count: lines, width: wide };
  }
}

/** The content type and extension of a CSV file, written here or elsewhere (by a component's sandbox). */
export const CSV_FILE_TYPE = CONTENT_TYPES.CSV;

/** The CSV file of a column table; other formats are written from its rows. */
export function writeSinkTable(table: ColumnTable, sink: Pick<DataSink, 'name' | 'format'>): SinkFile {
  if (sink.format !== 'CSV') return writeSinkFile(rowsOfTable(table), sink);
  return { bytes: csvBytesOfTable(table), ...CONTENT_TYPES.CSV };
}

/** The name of an output file: pipeline, sink and time, safe for any file system. */
export function sinkFileName(pipelineName: string, sinkName: string, at: Date, extension: string): string {
  const safe = (s: string) =>
    s
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 80) || 'output';
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${safe(pipelineName)}_${safe(sinkName)}_${stamp}${extension}`;
}
