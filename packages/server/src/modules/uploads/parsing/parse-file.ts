import { MIME_GROUPS, type MimeGroup } from '@gdb/shared/reference/mimetypes';
import type { ColumnChoice } from '@gdb/shared/uploads/column-matcher';
import { counted } from '@gdb/shared/values/counted';
import { isRecord } from '@gdb/shared/values/is-record';
import { errorMessage } from '../../../platform/error-message.ts';
import { storedRowsJson, storedTableJson, tableJson } from '../../../platform/files/row-tables.ts';
import { blanksAsNull, checkColumns } from './check-columns.ts';
import { type CheckResult, checkRows, type Problem } from './check-rows.ts';
import { type DetectedFormat, detectFormat, formatsOf } from './detect.ts';
import { readWorkbook } from './excel/index.ts';
import { DEFAULT_LIMITS, ParseError, type ParseLimits } from './limits.ts';
import { mappedHints, mapRead } from './mapped-read.ts';
import { type CsvRead, rowsOf } from './read-csv.ts';
import { readTextFormat } from './read-text-formats.ts';
import { rowSchemaOf } from './row-schema.ts';
import type { Note, ReadHints, ReadTable } from './table.ts';
import { wantsUniqueRows } from './unique-rows.ts';

export interface ParseRequest {
  kind?: 'file';
  bytes: Uint8Array;
  /** The content type group of the data source (csv, excel, xml, json). */
  group: MimeGroup;
  /** The data source's data model, when it has one. */
  dataModel: Record<string, unknown> | null;
  /**
   * What names the data model's content (its id and save counter): the worker keeps its compiled
   * checks by it for the next files (kept-checks.ts); without it they are compiled for this file alone.
   */
  dataModelKey?: string;
  limits?: Partial<ParseLimits>;
  /** The data source's stored column mappings, one per header met: the one for the file's header renames its columns. */
  columnMappings?: ColumnChoice[][];
}

export interface ParseOutcome {
  status: 'valid' | 'invalid';
  format: DetectedFormat;
  rowCount: number;
  /** The rows (typed by the data model) as a stored rows file's JSON text (see platform/files/row-tables.ts), for valid files. */
  rowsJson: string | null;
  problems: Problem[];
  problemCount: number;
  summary: string;
  /** Lines for the upload's log on how the file was read (its encoding, the sheet read, rows skipped). */
  notes: Note[];
}

/** A parse's outcome as the pool answers it: the rows as the UTF-8 bytes of their JSON text. */
export type PooledOutcome = Omit<ParseOutcome, 'rowsJson'> & {
  /** The stored rows file as UTF-8 bytes, for valid files (the worker hands their buffer over, no copy). */
  rowsBytes: Uint8Array | null;
};

/** The outcome as a worker posts it back. */
export function pooled(outcome: ParseOutcome): PooledOutcome {
  const { rowsJson, ...rest } = outcome;
  return { ...rest, rowsBytes: rowsJson === null ? null : new TextEncoder().encode(rowsJson) };
}

/** An outcome refusing the whole file with one message. */
export function invalid(format: DetectedFormat, message: string): ParseOutcome {
  return {
    status: 'invalid',
    format,
    rowCount: 0,
    rowsJson: null,
    problems: [{ row: null, message }],
    problemCount: 1,
    summary: message,
    notes: [],
  };
}

/** What a reader may know of the data model: its field names and the fields it requires. */
export function hintsOf(dataModel: Record<string, unknown> | null): ReadHints {
  if (!dataModel) return { fields: [], required: [] };
  const schema = rowSchemaOf(dataModel);
  const fields = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  return { fields, required };
}

function readTable(bytes: Uint8Array, format: DetectedFormat, hints: ReadHints, limits: ParseLimits): ReadTable | CsvRead {
  switch (format) {
    case 'xlsx':
    case 'xls':
      return readWorkbook(bytes, format, hints, limits);
    case 'json':
    case 'xml':
    case 'text':
      return readTextFormat(bytes, format, hints, limits);
    case 'binary':
      throw new ParseError('The file is not a readable data file.');
  }
}

/** The message of a file the parser gave up on. */
export function failureMessage(error: unknown): string {
  if (error instanceof ParseError) return error.message;
  if (error instanceof RangeError) return 'The file is too complex to read.';
  return `The file cannot be read: ${errorMessage(error)}`;
}

/**
 * Field names whose values make a column table in their order: distinct, none an array index
 * (an object puts those first, and the rows' table lists its fields in the rows' order).
 */
function columnsInOrder(fields: readonly string[]): boolean {
  return fields.length > 0 && new Set(fields).size === fields.length && !fields.some((f) => /^\d+$/.test(f));
}

const NO_PROBLEM: CheckResult = { invalidRows: 0, problems: [], problemCount: 0 };

/** Columns of texts checked by column against the data model; without one, blank texts (no value) become null. */
function checkedColumns(read: CsvRead, dataModel: Record<string, unknown> | null, modelKey: string | undefined) {
  const { columns, fields } = read;
  // Repeated rows are found, and worded, by the row check.
  if (!columns || read.rowProblems.length > 0 || !columnsInOrder(fields) || wantsUniqueRows(dataModel)) return null;
  if (dataModel) return checkColumns(fields, columns, dataModel, modelKey);
  return columns.map(blanksAsNull);
}

/**
 * The rows read checked (values converted by their field's type), and their table's JSON text
 * when all are valid. Values read by column are checked by column, with no row object built; the
 * rows are converted and checked one by one when that check cannot vouch for every row (and it
 * words the problems). Compiled checks are kept by `modelKey` (kept-checks.ts).
 */
export function checkRead(
  read: CsvRead | ReadTable,
  dataModel: Record<string, unknown> | null,
  limits: ParseLimits,
  modelKey?: string,
): { check: CheckResult; table: string | null } {
  if ('columns' in read) {
    const data = checkedColumns(read, dataModel, modelKey);
    if (data) return { check: NO_PROBLEM, table: storedTableJson(read.fields, data) };
  }
  const rows = 'columns' in read ? rowsOf(read) : read.rows;
  const { rows: converted, ...check } = checkRows({ ...read, rows }, dataModel, limits.maxProblems, modelKey);
  return { check, table: check.invalidRows === 0 ? tableJson(converted) : null };
}

export function summaryOf(rowCount: number, check: CheckResult): string {
  if (check.invalidRows === 0) return `${counted(rowCount, 'row')} read, all valid.`;
  const listed = check.problemCount > check.problems.length ? `, the first ${check.problems.length} listed` : '';
  return `${counted(rowCount, 'row')} read, ${check.invalidRows} invalid (${counted(check.problemCount, 'problem')}${listed}).`;
}

/** Why a file's content is not of its data source's type: a CSV source's file of NUL bytes names them. */
function mismatchMessage(request: ParseRequest, format: DetectedFormat): string {
  const nul = request.bytes.indexOf(0);
  if (request.group === 'csv' && format === 'binary' && nul >= 0) {
    return `The file holds NUL bytes (the first at byte ${nul + 1}), which no CSV text holds: it may be UTF-16 text without its byte order mark, or not a CSV file.`;
  }
  const expected = MIME_GROUPS[request.group].extensions.join(', ');
  return `The file content does not match the data source's type (${expected} expected).`;
}

/** Detects, parses and checks one uploaded file; never throws for a bad file, it answers invalid. */
export function parseFile(request: ParseRequest): ParseOutcome {
  const limits = { ...DEFAULT_LIMITS, ...request.limits };
  const format = detectFormat(request.bytes);
  if (request.bytes.length === 0) return invalid(format, 'The file is empty.');
  if (!formatsOf(request.group).includes(format)) return invalid(format, mismatchMessage(request, format));
  let read: ReadTable | CsvRead;
  try {
    const hints = mappedHints(hintsOf(request.dataModel), request.columnMappings);
    read = mapRead(readTable(request.bytes, format, hints, limits), request.columnMappings);
  } catch (error) {
    return invalid(format, failureMessage(error));
  }
  const rowCount = 'rowCount' in read ? read.rowCount : read.rows.length;
  if (rowCount === 0) return { ...invalid(format, 'The file has no rows.'), notes: read.notes };
  const { check, table } = checkRead(read, request.dataModel, limits, request.dataModelKey);
  return {
    status: table === null ? 'invalid' : 'valid',
    format,
    rowCount,
    rowsJson: table === null ? null : storedRowsJson([table]),
    problems: check.problems,
    problemCount: check.problemCount,
    summary: summaryOf(rowCount, check),
    notes: read.notes,
  };
}
