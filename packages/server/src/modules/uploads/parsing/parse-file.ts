import { MIME_GROUPS, type MimeGroup } from '@gdb/shared/reference/mimetypes';
import { storedRowsBytes, storedRowsJson, storedTableJson, tableJson } from '../row-tables.ts';
import { checkColumns } from './check-columns.ts';
import { type CheckResult, checkRows, type Problem } from './check-rows.ts';
import { type DetectedFormat, detectFormat, formatsOf } from './detect.ts';
import { DEFAULT_LIMITS, ParseError, type ParseLimits } from './limits.ts';
import { parseExcel } from './parse-excel.ts';
import { type CsvRead, decodeText, messageOf, parseJson, parseXml, type Row, readCsv, rowsOf } from './parse-text.ts';

export interface ParseRequest {
  kind?: 'file';
  bytes: Uint8Array;
  /** The content type group of the data source (csv, excel, xml, json). */
  group: MimeGroup;
  /** The data source's data model, when it has one. */
  dataModel: Record<string, unknown> | null;
  limits?: Partial<ParseLimits>;
}

export interface ParseOutcome {
  status: 'valid' | 'invalid';
  format: DetectedFormat;
  rowCount: number;
  /** The rows (typed by the data model) as a stored rows file's JSON text (see row-tables.ts), for valid files. */
  rowsJson: string | null;
  problems: Problem[];
  problemCount: number;
  summary: string;
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
  };
}

function readRows(bytes: Uint8Array, format: DetectedFormat, limits: ParseLimits): Row[] | CsvRead {
  switch (format) {
    case 'xlsx':
    case 'xls':
      return parseExcel(bytes, format, limits);
    case 'json':
      return parseJson(decodeText(bytes), limits);
    case 'xml':
      return parseXml(decodeText(bytes), limits);
    case 'text':
      return readCsv(decodeText(bytes), limits);
    case 'binary':
      throw new ParseError('The file is not a readable data file.');
  }
}

/** The message of a file the parser gave up on. */
function failureMessage(error: unknown): string {
  if (error instanceof ParseError) return error.message;
  if (error instanceof RangeError) return 'The file is too complex to read.';
  return `The file cannot be read: ${messageOf(error)}`;
}

const NO_PROBLEM: CheckResult = { invalidRows: 0, problems: [], problemCount: 0 };

function checkOf(rows: Row[], dataModel: Record<string, unknown> | null, coerce: boolean, limits: ParseLimits): CheckResult {
  return dataModel ? checkRows(rows, dataModel, { coerce, maxProblems: limits.maxProblems }) : NO_PROBLEM;
}

/**
 * Field names whose values make a column table in their order: distinct, none an array index
 * (an object puts those first, and the rows' table lists its fields in the rows' order).
 */
function columnsInOrder(fields: readonly string[]): boolean {
  return fields.length > 0 && new Set(fields).size === fields.length && !fields.some((f) => /^\d+$/.test(f));
}

/**
 * The rows read checked (values coerced to the data model's types), and their table's JSON text
 * when all are valid. Values read by column are checked by column, with no row object built; the
 * rows are checked one by one when that check cannot vouch for every row (and it words the problems).
 */
function checkRead(
  read: CsvRead | Row[],
  dataModel: Record<string, unknown> | null,
  coerce: boolean,
  limits: ParseLimits,
): { check: CheckResult; table: string | null } {
  if (!Array.isArray(read) && read.columns && columnsInOrder(read.fields)) {
    const data = dataModel ? checkColumns(read.fields, read.columns, dataModel) : read.columns;
    if (data) return { check: NO_PROBLEM, table: storedTableJson(read.fields, data) };
  }
  const rows = Array.isArray(read) ? read : rowsOf(read);
  const check = checkOf(rows, dataModel, coerce, limits);
  return { check, table: check.invalidRows === 0 ? tableJson(rows) : null };
}

function summaryOf(rowCount: number, check: CheckResult): string {
  if (check.invalidRows === 0) return `${rowCount} rows read, all valid.`;
  const listed = check.problemCount > check.problems.length ? `, the first ${check.problems.length} listed` : '';
  return `${rowCount} rows read, ${check.invalidRows} invalid (${check.problemCount} problems${listed}).`;
}

/** Detects, parses and checks one uploaded file; never throws for a bad file, it answers invalid. */
export function parseFile(request: ParseRequest): ParseOutcome {
  const limits = { ...DEFAULT_LIMITS, ...request.limits };
  const format = detectFormat(request.bytes);
  if (request.bytes.length === 0) return invalid(format, 'The file is empty.');
  if (!formatsOf(request.group).includes(format)) {
    const expected = MIME_GROUPS[request.group].extensions.join(', ');
    return invalid(format, `The file content does not match the data source's type (${expected} expected).`);
  }
  let read: Row[] | CsvRead;
  try {
    read = readRows(request.bytes, format, limits);
  } catch (error) {
    return invalid(format, failureMessage(error));
  }
  const rowCount = Array.isArray(read) ? read.length : read.rowCount;
  if (rowCount === 0) return invalid(format, 'The file has no rows.');
  const { check, table } = checkRead(read, request.dataModel, format !== 'json', limits);
  return {
    status: table === null ? 'invalid' : 'valid',
    format,
    rowCount,
    rowsJson: table === null ? null : storedRowsJson([table]),
    problems: check.problems,
    problemCount: check.problemCount,
    summary: summaryOf(rowCount, check),
  };
}

// ── a large CSV file in slices, one worker each ──

/** One slice of a CSV file (its header line and a run of whole records), parsed in a worker of its own. */
export interface CsvPartRequest {
  kind: 'csv-part';
  bytes: Uint8Array;
  dataModel: Record<string, unknown> | null;
  limits?: Partial<ParseLimits>;
}

/** A slice's rows and problems, numbered within the slice, for the pool to join. */
export interface PartOutcome extends CheckResult {
  kind: 'csv-part';
  rowCount: number;
  /** The slice's rows as UTF-8 bytes of one table's JSON (see row-tables.ts), when every one of them is valid. */
  rowsBytes: Uint8Array | null;
  /** The slice could not be read (a limit, a bad header): the whole file is parsed again for its message. */
  fatal: boolean;
  delimiter: string;
  linebreak: string;
  quoteErrors: boolean;
}

/** Parses and checks one slice; the pool joins the slices or, when they disagree, parses the whole file. */
export function parseCsvPart(request: CsvPartRequest): PartOutcome {
  const limits = { ...DEFAULT_LIMITS, ...request.limits };
  const none = { kind: 'csv-part' as const, rowCount: 0, rowsBytes: null, invalidRows: 0, problems: [], problemCount: 0 };
  let read: CsvRead;
  try {
    read = readCsv(decodeText(request.bytes), limits);
  } catch {
    return { ...none, fatal: true, delimiter: '', linebreak: '', quoteErrors: false };
  }
  const { rowCount, delimiter, linebreak, quoteErrors } = read;
  // A cut inside quoted text shows as an unclosed quote: the whole file is parsed instead.
  if (quoteErrors) return { ...none, fatal: false, delimiter, linebreak, quoteErrors };
  const { check, table } = checkRead(read, request.dataModel, true, limits);
  const rowsBytes = table === null ? null : new TextEncoder().encode(table);
  return { ...check, kind: 'csv-part', rowCount, rowsBytes, fatal: false, delimiter, linebreak, quoteErrors };
}

/**
 * The outcome of a file from its slices, as parsing it whole would answer it; null when the slices
 * cannot stand for the whole file (one unreadable or over a limit, a cut inside quotes, slices
 * reading a different delimiter or line break, more rows than allowed): then the whole file is parsed.
 */
export function joinCsvParts(parts: readonly PartOutcome[], limits: Partial<ParseLimits> = {}): PooledOutcome | null {
  const { maxRows, maxProblems } = { ...DEFAULT_LIMITS, ...limits };
  const [first] = parts;
  if (!first) return null;
  const agree = parts.every(
    (p) => !p.fatal && !p.quoteErrors && p.delimiter === first.delimiter && p.linebreak === first.linebreak,
  );
  const rowCount = parts.reduce((n, p) => n + p.rowCount, 0);
  if (!agree || rowCount > maxRows) return null;
  if (rowCount === 0) return pooled(invalid('text', 'The file has no rows.'));
  const problems: Problem[] = [];
  let offset = 0;
  for (const part of parts) {
    for (const p of part.problems) {
      if (problems.length >= maxProblems) break;
      const row = (p.row ?? 0) + offset;
      problems.push({ row, message: p.message.replace(/^Row \d+/, `Row ${row}`) });
    }
    offset += part.rowCount;
  }
  const check: CheckResult = {
    invalidRows: parts.reduce((n, p) => n + p.invalidRows, 0),
    problems,
    problemCount: parts.reduce((n, p) => n + p.problemCount, 0),
  };
  const valid = check.invalidRows === 0;
  return {
    status: valid ? 'valid' : 'invalid',
    format: 'text',
    rowCount,
    rowsBytes: valid ? storedRowsBytes(parts.flatMap((p) => (p.rowsBytes && p.rowCount > 0 ? [p.rowsBytes] : []))) : null,
    problems,
    problemCount: check.problemCount,
    summary: summaryOf(rowCount, check),
  };
}
