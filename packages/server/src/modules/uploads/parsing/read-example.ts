import { isRecord } from '@gdb/shared/values/is-record';
import { errorMessage } from '../../../platform/error-message.ts';
import { detectFormat } from './detect.ts';
import { readWorkbook } from './excel/index.ts';
import { DEFAULT_LIMITS, ParseError } from './limits.ts';
import type { CsvRead } from './read-csv.ts';
import { readTextFormat } from './read-text-formats.ts';
import { BigJsonInteger, Cell, NO_HINTS, type ReadTable, type Row } from './table.ts';

/**
 * What an example file holds, read by the upload readers with no data model: its fields and rows.
 * A row's values are plain: text as written (CSV, XML, a sheet's text cells; '' when empty), a
 * sheet cell as what it holds (a number, a boolean, a date as ISO text, null for an error cell),
 * JSON values as parsed; integers a double cannot hold (JSON's, a sheet's) as bigint.
 */
interface ExampleTable {
  format: 'csv' | 'xlsx' | 'xls' | 'xml' | 'json';
  fields: string[];
  rowCount: number;
  /** The rows; a CSV file's values are given by column instead (no row object is built for them). */
  rows: Row[];
  /** A CSV file's texts by column, one array per field in order, each holding every row's text. */
  columns: string[][] | null;
}

/** A value as read, made plain; JSON is walked only as deep as the readers allowed it (64 levels). */
function plain(value: unknown): unknown {
  if (value instanceof BigJsonInteger) return BigInt(value.digits);
  if (value instanceof Cell) {
    const cell = value.value;
    if (cell.kind === 'date') return cell.iso;
    if (cell.kind === 'number' && Number.isInteger(cell.value) && !Number.isSafeInteger(cell.value)) {
      return BigInt(/^-?\d+$/.test(cell.raw) ? cell.raw : cell.value);
    }
    return cell.kind === 'error' ? null : cell.value;
  }
  if (Array.isArray(value)) return value.map(plain);
  if (isRecord(value)) {
    const out: Row = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, { value: plain(v), enumerable: true, writable: true });
    return out;
  }
  return value;
}

function tableOf(bytes: Uint8Array, format: ReturnType<typeof detectFormat>): ReadTable | CsvRead {
  switch (format) {
    case 'xlsx':
    case 'xls':
      return readWorkbook(bytes, format, NO_HINTS, DEFAULT_LIMITS);
    case 'binary':
      throw new ParseError('The file is not a readable data file.');
    default:
      return readTextFormat(bytes, format, NO_HINTS, DEFAULT_LIMITS);
  }
}

/**
 * Reads an example file (CSV, XLSX, XLS, XML or JSON, told apart by its bytes) within the upload
 * limits: a workbook's inflated size, XML entities, nesting depth, rows and columns. Throws an
 * Error whose message says why a file cannot be read.
 */
export function readExample(bytes: Uint8Array): ExampleTable {
  if (bytes.length === 0) throw new ParseError('The file is empty.');
  const detected = detectFormat(bytes);
  let table: ReadTable | CsvRead;
  try {
    table = tableOf(bytes, detected);
  } catch (error) {
    if (error instanceof ParseError) throw error;
    if (error instanceof RangeError) throw new ParseError('The file is too complex to read.');
    throw new ParseError(`The file cannot be read: ${errorMessage(error)}`);
  }
  const format = detected === 'text' || detected === 'binary' ? 'csv' : detected;
  const fields = [...table.fields];
  if ('columns' in table) return { format, fields, rowCount: table.rowCount, rows: [], columns: table.columns };
  return { format, fields, rowCount: table.rows.length, rows: table.rows.map((row) => plain(row) as Row), columns: null };
}
