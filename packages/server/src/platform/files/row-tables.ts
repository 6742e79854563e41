// Rows as they are stored once a file is checked, handed to a run's component and answered by it.
//
// A stored rows file is the JSON text `{"tables":[T, …]}`; an older one is a plain JSON array of
// rows. Each table T is either the rows themselves (a JSON array of objects) or, when every row has
// the same fields in the same order and only plain values (text, numbers, booleans, null), a column
// table `{"columns":[names],"data":[[values of the first field], …]}`: half the text of the rows,
// and rows are rebuilt from it faster than JSON.parse builds them. In a stored file, a column of
// texts that repeat is coded: `{"values":[each distinct text once],"codes":[each row's index among
// them]}` — less text again, and one string per repeated text once read. The component's sandbox
// reads the same tables (src/runtime/sandbox/column-tables.ts, `fromTables`) and answers plain column
// tables (`toTable`).

import { isRecord } from '@gdb/shared/values/is-record';

/** Rows sharing their fields: the names once, then one array of values per field. */
export interface ColumnTable {
  columns: string[];
  data: unknown[][];
}

const TABLES_START = '{"tables":[';
const TABLES_END = ']}';

function isPlain(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** A stored column of repeated texts: each distinct text once, and each row's index among them. */
export interface CodedColumn {
  /** Each distinct text once; null stands for no value (an empty cell). */
  values: (string | null)[];
  codes: number[];
}

/** A column is coded when it holds at most one distinct text per this many rows. */
export const CODE_SHARE = 4;

/**
 * A column as stored: coded when its values are all texts (or null) and repeat enough (at most one distinct
 * text in `CODE_SHARE` rows); otherwise as it is.
 */
function storedColumn(values: readonly unknown[]): readonly unknown[] | CodedColumn {
  const limit = Math.floor(values.length / CODE_SHARE);
  const index = new Map<string | null, number>();
  const codes = new Array<number>(values.length);
  for (let r = 0; r < values.length; r++) {
    const value = values[r];
    if (typeof value !== 'string' && value !== null) return values;
    let code = index.get(value);
    if (code === undefined) {
      if (index.size >= limit) return values;
      code = index.size;
      index.set(value, code);
    }
    codes[r] = code;
  }
  return { values: [...index.keys()], codes };
}

/**
 * JSON text of a stored table of columns (the field names and each field's values, in order, or
 * already coded), repeated texts coded.
 */
export function storedTableJson(columns: readonly string[], data: readonly (readonly unknown[] | CodedColumn)[]): string {
  return JSON.stringify({ columns, data: data.map((column) => (isCoded(column) ? column : storedColumn(column))) });
}

function isCoded(value: unknown): value is CodedColumn {
  return isRecord(value) && Array.isArray(value.values) && Array.isArray(value.codes);
}

/** A stored column's values, one per row (a coded column decoded); null when it is not a readable column. */
export function columnValues(column: unknown): unknown[] | null {
  if (Array.isArray(column)) return column;
  if (!isCoded(column)) return null;
  const { values, codes } = column;
  const out = new Array<unknown>(codes.length);
  for (let r = 0; r < codes.length; r++) {
    const code = codes[r];
    if (!Number.isInteger(code) || (code as number) < 0 || (code as number) >= values.length) return null;
    out[r] = values[code as number];
  }
  return out;
}

/** The rows as a column table, or null when they do not all have the same fields or hold other values. */
export function columnTable(rows: readonly Record<string, unknown>[]): ColumnTable | null {
  const [first] = rows;
  if (!first) return null;
  const columns = Object.keys(first);
  if (columns.length === 0) return null;
  const data = columns.map(() => new Array<unknown>(rows.length));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Record<string, unknown>;
    const keys = Object.keys(row);
    if (keys.length !== columns.length) return null;
    for (let c = 0; c < columns.length; c++) {
      const key = columns[c] as string;
      if (keys[c] !== key) return null;
      const value = row[key];
      if (!isPlain(value)) return null;
      (data[c] as unknown[])[r] = value;
    }
  }
  return { columns, data };
}

/** JSON text of one stored table of the rows: a column table (repeated texts coded) when they allow it, else the rows. */
export function tableJson(rows: readonly Record<string, unknown>[]): string {
  const table = columnTable(rows);
  return table ? storedTableJson(table.columns, table.data) : JSON.stringify(rows);
}

/** A stored rows file of tables given as JSON text. */
export function storedRowsJson(tables: readonly string[]): string {
  return `${TABLES_START}${tables.join(',')}${TABLES_END}`;
}

const BYTES_START = Buffer.from(TABLES_START);
const BYTES_END = Buffer.from(TABLES_END);

/** A stored rows file of tables given as UTF-8 JSON bytes, joined without parsing them. */
export function storedRowsBytes(tables: readonly Uint8Array[]): Uint8Array {
  const size = BYTES_START.length + BYTES_END.length + tables.reduce((n, t) => n + t.length, 0) + Math.max(0, tables.length - 1);
  const joined = new Uint8Array(size);
  joined.set(BYTES_START, 0);
  let at = BYTES_START.length;
  tables.forEach((t, i) => {
    if (i > 0) joined[at++] = 0x2c;
    joined.set(t, at);
    at += t.length;
  });
  joined.set(BYTES_END, at);
  return joined;
}

/**
 * The tables of a stored rows file as JSON text, comma-separated (empty when it holds none), read
 * without parsing them; null when the text is not a stored rows file.
 */
export function storedTablesText(text: string): string | null {
  const t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) return t;
  if (t.startsWith(TABLES_START) && t.endsWith(TABLES_END)) return t.slice(TABLES_START.length, -TABLES_END.length);
  return null;
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * `storedTablesText` on the UTF-8 bytes of a stored rows file: the tables' JSON as a view of those
 * bytes (nothing copied, nothing decoded), or null when they are not a stored rows file.
 */
export function storedTablesBytes(bytes: Uint8Array): Uint8Array | null {
  let start = 0;
  let end = bytes.length;
  while (start < end && isSpace(bytes[start])) start++;
  while (end > start && isSpace(bytes[end - 1])) end--;
  const t = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start);
  if (t[0] === 0x5b && t[t.length - 1] === 0x5d) return t;
  if (t.length < BYTES_START.length + BYTES_END.length) return null;
  const head = t.subarray(0, BYTES_START.length);
  const tail = t.subarray(t.length - BYTES_END.length);
  return head.equals(BYTES_START) && tail.equals(BYTES_END) ? t.subarray(head.length, t.length - tail.length) : null;
}

/** A column table read from untrusted JSON (a component's answer): null when it is not a well-formed one. */
export function asColumnTable(value: unknown): ColumnTable | null {
  if (!isRecord(value)) return null;
  const { columns, data } = value;
  if (!Array.isArray(columns) || !Array.isArray(data) || columns.length === 0 || data.length !== columns.length) return null;
  if (!columns.every((c) => typeof c === 'string') || new Set(columns).size !== columns.length) return null;
  const [first] = data;
  if (!Array.isArray(first) || !data.every((d) => Array.isArray(d) && d.length === first.length)) return null;
  return { columns: columns as string[], data: data as unknown[][] };
}

/** The number of rows of a column table. */
export function tableLength(table: ColumnTable): number {
  return table.data[0]?.length ?? 0;
}

/** The rows of a column table, each an object with the table's fields in order. */
export function rowsOfTable(table: ColumnTable): Record<string, unknown>[] {
  const { columns, data } = table;
  const n = tableLength(table);
  const rows = new Array<Record<string, unknown>>(n);
  // An own field named __proto__, as JSON.parse makes it, not a new prototype.
  const proto = columns.indexOf('__proto__');
  for (let r = 0; r < n; r++) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < columns.length; c++) {
      const value = (data[c] as unknown[])[r];
      if (c === proto) Object.defineProperty(row, '__proto__', { value, enumerable: true, writable: true, configurable: true });
      else row[columns[c] as string] = value;
    }
    rows[r] = row;
  }
  return rows;
}

/** The rows of a stored rows file (the whole file parsed; a run hands the text to its sandbox instead). */
export function rowsOfStored(text: string): Record<string, unknown>[] {
  const inner = storedTablesText(text);
  if (inner === null) throw new Error('The text is not a stored rows file.');
  const tables: unknown = JSON.parse(`[${inner}]`);
  if (!Array.isArray(tables)) throw new Error('The text is not a stored rows file.');
  return tables.flatMap((t: unknown) => {
    if (Array.isArray(t)) return t as Record<string, unknown>[];
    const table = asColumnTable(
      isRecord(t) && Array.isArray(t.data) ? { columns: t.columns, data: t.data.map(columnValues) } : t,
    );
    if (!table) throw new Error('A stored table is not readable.');
    return rowsOfTable(table);
  });
}
