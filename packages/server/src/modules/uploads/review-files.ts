import path from 'node:path';
import { Readable } from 'node:stream';
import * as XLSX from '@e965/xlsx';
import { type ReviewState, valuesOf } from './review-state.ts';

/** A file the review writes: its name, type and bytes (or, for a long CSV, a stream of them). */
export interface ReviewFile {
  filename: string;
  contentType: string;
  body: Uint8Array | Readable;
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Cells a spreadsheet would read as a formula: written with a leading apostrophe in a download. */
const FORMULA = /^[=+\-@\t\r]/;

/** A CSV field: quoted when it holds a separator, a quote, a line break or blanks at an end. */
function csvField(value: string | null, escapeFormulas: boolean): string {
  if (value === null) return '';
  const text = escapeFormulas && FORMULA.test(value) ? `'${value}` : value;
  return /[",;\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: readonly (string | null)[], escapeFormulas: boolean) =>
  `${cells.map((c) => csvField(c, escapeFormulas)).join(',')}\n`;

/** A name for a file derived from the upload's: its base name, `-suffix`, the extension. */
function derivedName(original: string | null, suffix: string, extension: string): string {
  const name = path.basename(original ?? 'upload');
  const stem = name.slice(0, name.length - path.extname(name).length);
  const base = [...stem].map((c) => (c.charCodeAt(0) < 0x20 || c === '"' || c === '\\' ? '_' : c)).join('') || 'upload';
  return `${base.slice(0, 180)}-${suffix}${extension}`;
}

/** The rows kept by the corrections (removed ones left out), as corrected. */
function correctedRows(state: ReviewState): (string | null)[][] {
  const rows: (string | null)[][] = [];
  for (let i = 0; i < state.base.values.length; i++) if (!state.removed.has(i)) rows.push(valuesOf(state, i));
  return rows;
}

/**
 * The corrected file: the original's rows with the corrections, in the original's kind (a CSV
 * text, a workbook, a JSON list), so that its data source reads and checks it as any upload.
 */
export function correctedFile(state: ReviewState, format: string, original: string | null): ReviewFile & { body: Uint8Array } {
  const { fields } = state.base;
  const rows = correctedRows(state);
  if (format === 'json') {
    const items = rows.map((values) => {
      const item: Record<string, string | null> = {};
      fields.forEach((f, c) => {
        Object.defineProperty(item, f, { value: values[c] ?? null, enumerable: true, writable: true, configurable: true });
      });
      return item;
    });
    return {
      filename: derivedName(original, 'corrected', '.json'),
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify(items)),
    };
  }
  if (format === 'xlsx' || format === 'xls') {
    return { filename: derivedName(original, 'corrected', '.xlsx'), contentType: XLSX_TYPE, body: workbook([fields, ...rows]) };
  }
  const text = csvLine(fields, false) + rows.map((r) => csvLine(r, false)).join('');
  return { filename: derivedName(original, 'corrected', '.csv'), contentType: 'text/csv', body: Buffer.from(text) };
}

/** A workbook of one sheet of texts; a cell with no value is left empty. */
function workbook(table: readonly (readonly (string | null)[])[]): Uint8Array {
  const sheet = XLSX.utils.aoa_to_sheet(table.map((r) => r.map((v) => v ?? undefined)));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Sheet1');
  const bytes: unknown = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true });
  return bytes as Uint8Array;
}

/** The name of the problem column: Problems, unless the file has a column so named. */
function problemColumn(fields: readonly string[]): string {
  let name = 'Problems';
  while (fields.includes(name)) name = `${name} (review)`;
  return name;
}

/** Each row with a problem: its number, its values as corrected and its problems in one cell. */
function* problemRows(state: ReviewState): Generator<(string | null)[]> {
  for (let i = 0; i < state.base.values.length; i++) {
    const problems = state.problems.get(i);
    if (!problems || state.removed.has(i)) continue;
    const said = problems.map((p) => (p.field === null ? p.message : `${p.field}: ${p.message}`)).join('; ');
    yield [String(state.base.lines[i] ?? i + 1), ...valuesOf(state, i), said];
  }
}

/**
 * The rows with a problem, to fix in a spreadsheet and upload again: a Row column, the file's
 * columns and a problem column. A CSV is streamed; an XLSX is written whole.
 */
export function problemsFile(state: ReviewState, format: 'csv' | 'xlsx', original: string | null): ReviewFile {
  const header = ['Row', ...state.base.fields, problemColumn(state.base.fields)];
  if (format === 'xlsx') {
    return {
      filename: derivedName(original, 'problems', '.xlsx'),
      contentType: XLSX_TYPE,
      body: workbook([header, ...problemRows(state)]),
    };
  }
  function* lines(): Generator<string> {
    let chunk = csvLine(header, true);
    for (const row of problemRows(state)) {
      chunk += csvLine(row, true);
      if (chunk.length >= 64 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  return {
    filename: derivedName(original, 'problems', '.csv'),
    contentType: 'text/csv; charset=utf-8',
    body: Readable.from(lines()),
  };
}
