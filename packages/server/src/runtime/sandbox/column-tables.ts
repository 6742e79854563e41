// Rows as tables (the server's platform/files/row-tables.ts says what a table is): input tables
// made into rows, output ports of rows answered as column tables or as CSV files.
import {
  ceil,
  FunctionCtor,
  floor,
  hasOwn,
  isArray,
  isObject,
  keysOf,
  max,
  RunError,
  setOwn,
  toJson,
  Uint8ArrayCtor,
} from './base.ts';
import { csvCell, putCell, putText, writtenBytes } from './csv-writer.ts';
import type { AppendRows, CodedColumn, ColumnTable, CsvFile, Emit, PieceSender, RowWalk, RunOptions, Values } from './types.d.ts';

/** Rows written ahead to size a CSV file's buffer. */
const CSV_SAMPLE_ROWS = 256;

/** A stored column of repeated texts: each distinct text once, and each row's index among them. */
function isCoded(column: unknown): column is CodedColumn {
  return isObject(column) && isArray(column.values) && isArray(column.codes);
}

/** The length of a column: an array or a coded column. */
function columnLength(column: unknown): number {
  return isArray(column) ? column.length : (column as CodedColumn).codes.length;
}

/**
 * A function appending the rows of a column table to a list: one object literal per row, fields
 * in order, a coded column's texts looked up by their codes.
 */
function rowMaker(columns: string[], data: ColumnTable['data']): AppendRows {
  // An own field named __proto__ (as JSON.parse makes it) needs a computed name in a literal.
  const fields = columns.map((name, c) => {
    const key = name === '__proto__' ? `[${toJson(name)}]` : toJson(name);
    return `${key}: ${isArray(data[c]) ? `c${c}[i]` : `v${c}[c${c}[i]]`}`;
  });
  const reads = columns.map((_, c) =>
    isArray(data[c]) ? `const c${c} = data[${c}];` : `const c${c} = data[${c}].codes, v${c} = data[${c}].values;`,
  );
  return new FunctionCtor(
    'data',
    'rows',
    `${reads.join('\n')}\nfor (let i = 0; i < c0.length; i++) rows.push({ ${fields.join(', ')} });`,
  ) as AppendRows;
}

function isColumnTable(table: unknown): table is ColumnTable {
  if (!isObject(table) || !isArray(table.columns) || !isArray(table.data)) return false;
  const { columns, data } = table as { columns: unknown[]; data: unknown[] };
  if (columns.length === 0 || data.length !== columns.length) return false;
  for (let c = 0; c < columns.length; c++) {
    if (typeof columns[c] !== 'string' || !(isArray(data[c]) || isCoded(data[c]))) return false;
    if (columnLength(data[c]) !== columnLength(data[0])) return false;
  }
  return true;
}

/** The rows of an input port given as a list of tables: plain row arrays and column tables, in order. */
export function fromTables(port: string, tables: unknown): unknown[] {
  if (!isArray(tables)) throw new RunError(`Input ${port}: the rows cannot be read.`);
  if (tables.length === 1 && isArray(tables[0])) return tables[0];
  const rows: unknown[] = [];
  for (const table of tables) {
    if (isArray(table)) {
      for (let i = 0; i < table.length; i++) rows.push(table[i]);
    } else if (isColumnTable(table)) {
      rowMaker(table.columns, table.data)(table.data, rows);
    } else {
      throw new RunError(`Input ${port}: the rows cannot be read.`);
    }
  }
  return rows;
}

/**
 * The fields of rows that may make a column table (the first row's), or null when they cannot:
 * no rows, a first row that is not a plain object or has no fields, an array with a toJSON.
 */
function tableFields(rows: unknown[]): string[] | null {
  if (rows.length === 0 || typeof (rows as { toJSON?: unknown }).toJSON === 'function') return null;
  const first = rows[0];
  if (!isObject(first)) return null;
  const columns = keysOf(first);
  return columns.length === 0 ? null : columns;
}

/**
 * A function going through rows that all have exactly these fields, in this order, with plain
 * values (text, numbers, booleans, null), and no toJSON; it answers false at the first row that
 * does not. It takes `params`, then isArray and keysOf; `start` runs first, and `visit(c)` is the
 * statement run with the value `v` of field c of row `r`. Generated per list of fields so that
 * each field is read by name.
 */
function rowWalker(columns: string[], params: string[], start: string, visit: (c: number) => string): RowWalk {
  const sameKeys = columns.map((name, c) => `keys[${c}] !== ${toJson(name)}`).join(' || ');
  const reads = columns.map(
    (name, c) =>
      `v = row[${toJson(name)}]; if (v !== null && (t = typeof v) !== 'string' && t !== 'number' && t !== 'boolean') return false; ${visit(c)}`,
  );
  return new FunctionCtor(
    ...params,
    'isArray',
    'keysOf',
    `${start}
let v, t;
for (let r = 0; r < rows.length; r++) {
  const row = rows[r];
  if (row === null || typeof row !== 'object' || isArray(row) || typeof row.toJSON === 'function') return false;
  const keys = keysOf(row);
  if (keys.length !== ${columns.length} || ${sameKeys}) return false;
  ${reads.join('\n  ')}
}
return true;`,
  ) as RowWalk;
}

/**
 * A column table of an output port's rows, or null when JSON text must carry them (see
 * `rowWalker` for the rows it takes). A column table rebuilds the rows JSON.stringify would have
 * written.
 */
function toTable(rows: unknown[]): ColumnTable | null {
  const columns = tableFields(rows);
  if (columns === null) return null;
  const data: unknown[][] = [];
  for (let c = 0; c < columns.length; c++) data.push(new Array(rows.length));
  const names = columns.map((_, c) => `c${c}`).join(', ');
  const fill = rowWalker(columns, ['rows', 'data'], `const [${names}] = data;`, (c) => `c${c}[r] = v;`);
  return fill(rows, data, isArray, keysOf) ? { columns, data } : null;
}

/**
 * The output with its ports of rows as column tables where they allow it, and the names of those
 * ports; the ports asked for as CSV files with their files (what is left of each after the pieces
 * `piecesOf(port)` sent, when it gives a sender).
 */
export function tablesOf(
  output: unknown,
  csvPorts: unknown[],
  piecesOf: (port: string) => PieceSender | null,
): { value: unknown; tables: string[]; csv: Record<string, Uint8Array> } {
  if (!isObject(output) || typeof output.toJSON === 'function') return { value: output, tables: [], csv: {} };
  const value: Values = {};
  const tables: string[] = [];
  const csv: Record<string, Uint8Array> = {};
  for (const key of keysOf(output)) {
    const port = output[key];
    const file = isArray(port) && csvPorts.includes(key) ? csvFileOfRows(port, piecesOf(key)) : null;
    if (file !== null) {
      setOwn(csv, key, file);
      continue;
    }
    const table = isArray(port) ? toTable(port) : null;
    if (table !== null) tables.push(key);
    setOwn(value, key, table ?? port);
  }
  return { value, tables, csv };
}

/**
 * The CSV file of an output port's rows as UTF-8 bytes, written cell by cell into one buffer, or
 * null when the rows would not make a column table (the same rows as `toTable`, the same file as
 * the server writes from one). No cell, line or file text is built for cells written as they
 * are, and no column either. The buffer is sized from a sample of the rows: memory new to the
 * process costs about as much to fill as the writing itself, so it is taken once, not doubled
 * and copied as the file grows, nor copied again at the end when it is nearly full.
 */
function csvFileOfRows(rows: unknown[], pieces: PieceSender | null): Uint8Array | null {
  const columns = tableFields(rows);
  if (columns === null) return null;
  const header = columns.map(csvCell).join(',');
  const last = columns.length - 1;
  // After each line, a file sent in pieces sends the lines written so far once they fill a piece.
  const write = rowWalker(columns, ['rows', 'file', 'putCell'], '', (c) =>
    c === last
      ? 'putCell(file, v); file.out[file.p++] = 10; if (file.p >= file.limit) file.send();'
      : 'putCell(file, v); file.out[file.p++] = 44;',
  );
  const sample: unknown[] = [];
  const step = max(1, floor(rows.length / CSV_SAMPLE_ROWS));
  for (let r = 0; r < rows.length; r += step) sample.push(rows[r]);
  const probe: CsvFile = { out: new Uint8ArrayCtor(64 * sample.length + 64), p: 0, limit: Infinity };
  if (!write(sample, probe, putCell, isArray, keysOf)) return null;
  const perRow = sample.length === 0 ? 0 : probe.p / sample.length;
  const whole = 3 * header.length + ceil(perRow * rows.length * 1.05) + 64;
  // In pieces when it makes at least two: a buffer of a piece and room for a long line, used again.
  const inPieces = pieces !== null && whole >= 2 * pieces.bytes;
  const file: CsvFile = {
    out: new Uint8ArrayCtor(inPieces ? pieces.bytes + 3 * header.length + ceil(4 * perRow) + 64 : whole),
    p: 0,
    limit: inPieces ? pieces.bytes : Infinity,
    send() {
      (pieces as PieceSender).send(file.out.subarray(0, file.p));
      file.p = 0;
    },
  };
  file.p = putText(file.out, 0, header, false);
  file.out[file.p++] = 10;
  // Pieces already sent of rows that turn out not to make a file are dropped by the server: the
  // answer does not name the port as a file.
  if (!write(rows, file, putCell, isArray, keysOf)) return null;
  return writtenBytes(file);
}

/**
 * The senders of the ports' pieces of CSV file for the server, which stores each as it comes
 * while the next is being written (`of(port)` is null when the run sends none), the pieces sent
 * by port and their bytes in all. A piece is copied as it is sent.
 */
export function pieceSenders(
  options: RunOptions,
  emit: unknown,
): { counts: Record<string, number>; size: () => number; of: (port: string) => PieceSender | null } {
  const counts: Record<string, number> = {};
  let size = 0;
  const bytes = options.csvPieceBytes;
  const on = typeof emit === 'function' && typeof bytes === 'number' && bytes >= 1024;
  return {
    counts,
    size: () => size,
    of: (port) =>
      on
        ? {
            bytes,
            send(piece) {
              const count = hasOwn(counts, port) ? (counts[port] as number) : 0;
              (emit as Emit)(port, count, piece);
              setOwn(counts, port, count + 1);
              size += piece.byteLength;
            },
          }
        : null,
  };
}
