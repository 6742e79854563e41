import { MIME_GROUPS, type MimeGroup } from '@gdb/shared/reference/mimetypes';
import { checkRows, type Problem } from './check-rows.ts';
import { type DetectedFormat, detectFormat, formatsOf } from './detect.ts';
import { DEFAULT_LIMITS, ParseError, type ParseLimits } from './limits.ts';
import { parseExcel } from './parse-excel.ts';
import { decodeText, messageOf, parseCsv, parseJson, parseXml, type Row } from './parse-text.ts';

export interface ParseRequest {
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
  /** The rows as JSON text (typed by the data model), for valid files. */
  rowsJson: string | null;
  problems: Problem[];
  problemCount: number;
  summary: string;
}

/** A parse's outcome as the pool answers it: the rows as the UTF-8 bytes of their JSON text. */
export type PooledOutcome = Omit<ParseOutcome, 'rowsJson'> & {
  /** The rows as UTF-8 bytes of JSON, for valid files (the worker hands their buffer over, no copy). */
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

function readRows(bytes: Uint8Array, format: DetectedFormat, limits: ParseLimits): Row[] {
  switch (format) {
    case 'xlsx':
    case 'xls':
      return parseExcel(bytes, format, limits);
    case 'json':
      return parseJson(decodeText(bytes), limits);
    case 'xml':
      return parseXml(decodeText(bytes), limits);
    case 'text':
      return parseCsv(decodeText(bytes), limits);
    case 'binary':
      throw new ParseError('The file is not a readable data file.');
  }
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
  let rows: Row[];
  try {
    rows = readRows(request.bytes, format, limits);
  } catch (error) {
    if (error instanceof ParseError) return invalid(format, error.message);
    if (error instanceof RangeError) return invalid(format, 'The file is too complex to read.');
    return invalid(format, `The file cannot be read: ${messageOf(error)}`);
  }
  if (rows.length === 0) return invalid(format, 'The file has no rows.');
  const check = request.dataModel
    ? checkRows(rows, request.dataModel, { coerce: format !== 'json', maxProblems: limits.maxProblems })
    : { invalidRows: 0, problems: [], problemCount: 0 };
  const status = check.invalidRows === 0 ? 'valid' : 'invalid';
  const summary =
    status === 'valid'
      ? `${rows.length} rows read, all valid.`
      : `${rows.length} rows read, ${check.invalidRows} invalid (${check.problemCount} problems${
          check.problemCount > check.problems.length ? `, the first ${check.problems.length} listed` : ''
        }).`;
  return {
    status,
    format,
    rowCount: rows.length,
    rowsJson: status === 'valid' ? JSON.stringify(rows) : null,
    problems: check.problems,
    problemCount: check.problemCount,
    summary,
  };
}
