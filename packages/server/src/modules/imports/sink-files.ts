import * as XLSX from '@e965/xlsx';
import type { DataSink } from '@gdb/shared/pipelines/pipeline.schemas';
import { type ColumnTable, rowsOfTable, tableLength } from '../uploads/row-tables.ts';
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

// CSV byte for byte as papaparse's `unparse` writes it with `escapeFormulae: true` and
// `newline: '\n'` (the tests hold the two together), encoded as it is written: `unparse` builds
// one string cell by cell through an array of arrays, which took seconds and most of the garbage
// of a 200,000-row output; short strings flushed into buffers cost a fraction of that.
/** papaparse's formula pattern: a cell starting with one of these characters, without line breaks after it. */
const FORMULA = /^[=+\-@\t\r].*$/;
/** A cell holding a line break, a quote, a byte order mark or the delimiter is quoted, as is one starting or ending with a space. */
const NEEDS_QUOTES = /[\r\n"\uFEFF,]/;
const SPACE = 32;
/** Characters of text gathered before they are encoded. */
const FLUSH_CHARS = 64 * 1024;

/** One CSV cell: text a spreadsheet would read as a formula gets a leading quote; quotes are doubled. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  let quote = false;
  if (FORMULA.test(text)) {
    text = `'${text}`;
    quote = true;
  }
  if (!quote && !NEEDS_QUOTES.test(text) && text.charCodeAt(0) !== SPACE && text.charCodeAt(text.length - 1) !== SPACE) {
    return text;
  }
  return `"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
}

/** The CSV file of the rows: a header line, then one line per row, each ended by a line feed. */
export function csvBytes(columns: readonly string[], rows: readonly Record<string, unknown>[]): Buffer {
  // Without columns every line is empty (and there is no header line).
  if (columns.length === 0) return Buffer.from('\n'.repeat(Math.max(rows.length, 1)));
  const parts: Buffer[] = [];
  let text = `${columns.map(csvCell).join(',')}\n`;
  const last = columns.length - 1;
  for (const row of rows) {
    for (let c = 0; c < last; c++) text += `${csvCell(row[columns[c] as string])},`;
    text += `${csvCell(row[columns[last] as string])}\n`;
    if (text.length > FLUSH_CHARS) {
      parts.push(Buffer.from(text));
      text = '';
    }
  }
  parts.push(Buffer.from(text));
  return Buffer.concat(parts);
}

/** The CSV file of a column table: the same bytes as `csvBytes` of its rows, without building them. */
export function csvBytesOfTable(table: ColumnTable): Buffer {
  const { columns, data } = table;
  const parts: Buffer[] = [];
  let text = `${columns.map(csvCell).join(',')}\n`;
  const last = columns.length - 1;
  const lastColumn = data[last] as unknown[];
  const n = tableLength(table);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < last; c++) text += `${csvCell((data[c] as unknown[])[r])},`;
    text += `${csvCell(lastColumn[r])}\n`;
    if (text.length > FLUSH_CHARS) {
      parts.push(Buffer.from(text));
      text = '';
    }
  }
  parts.push(Buffer.from(text));
  return Buffer.concat(parts);
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
