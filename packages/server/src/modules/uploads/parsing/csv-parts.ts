import { storedRowsBytes } from '../../../platform/files/row-tables.ts';
import type { CheckResult, Problem } from './check-rows.ts';
import { DEFAULT_LIMITS, type ParseLimits } from './limits.ts';
import { mapCsvRead, mappedHints } from './mapped-read.ts';
import { checkRead, hintsOf, invalid, type ParseRequest, type PooledOutcome, pooled, summaryOf } from './parse-file.ts';
import { type CsvRead, readCsvFile } from './read-csv.ts';
import type { Note } from './table.ts';

/** One slice of a CSV file (its header line and a run of whole records), parsed in a worker of its own. */
export interface CsvPartRequest {
  kind: 'csv-part';
  bytes: Uint8Array;
  dataModel: Record<string, unknown> | null;
  /** What names the data model's content (see ParseRequest). */
  dataModelKey?: string;
  limits?: Partial<ParseLimits>;
  /** The data source's stored column mappings (see ParseRequest). */
  columnMappings?: ParseRequest['columnMappings'];
}

/** A slice's rows and problems, numbered within the slice, for the pool to join. */
export interface PartOutcome extends CheckResult {
  kind: 'csv-part';
  rowCount: number;
  /** The slice's rows as UTF-8 bytes of one table's JSON (see platform/files/row-tables.ts), when every one of them is valid. */
  rowsBytes: Uint8Array | null;
  /** The slice could not be read (a limit, a bad header): the whole file is parsed again for its message. */
  fatal: boolean;
  delimiter: string;
  /** The header's fields as the slice read them. */
  fields: readonly string[];
  /** The lines the slice's rows span after its copy of the header: the later slices' rows are numbered after them. */
  bodyLines: number;
  /** How the slice was read (its encoding); the first slice's are the file's. */
  notes: Note[];
}

/** Parses and checks one slice; the pool joins the slices or, when they disagree, parses the whole file. */
export function parseCsvPart(request: CsvPartRequest): PartOutcome {
  const limits = { ...DEFAULT_LIMITS, ...request.limits };
  let read: CsvRead;
  try {
    const hints = mappedHints(hintsOf(request.dataModel), request.columnMappings);
    read = mapCsvRead(readCsvFile(request.bytes, hints, limits), request.columnMappings);
  } catch {
    // A limit, or a cut inside quoted text (an unclosed quote): the whole file is parsed for its message.
    const none = { rowCount: 0, rowsBytes: null, invalidRows: 0, problems: [], problemCount: 0 };
    return { ...none, kind: 'csv-part', fatal: true, delimiter: '', fields: [], bodyLines: 0, notes: [] };
  }
  const { rowCount, delimiter, fields, notes } = read;
  const { check, table } = checkRead(read, request.dataModel, limits, request.dataModelKey);
  const rowsBytes = table === null ? null : new TextEncoder().encode(table);
  return {
    ...check,
    kind: 'csv-part',
    rowCount,
    rowsBytes,
    fatal: false,
    delimiter,
    fields,
    bodyLines: read.endLine - read.bodyLine,
    notes,
  };
}

/**
 * The outcome of a file from its slices, as parsing it whole would answer it; null when the slices
 * cannot stand for the whole file (one unreadable or over a limit, a cut inside quotes, slices
 * reading a different delimiter or header, more rows than allowed): then the whole file is parsed. The rows
 * of a later slice are numbered after the lines of the slices before it.
 */
export function joinCsvParts(parts: readonly PartOutcome[], limits: Partial<ParseLimits> = {}): PooledOutcome | null {
  const { maxRows, maxProblems } = { ...DEFAULT_LIMITS, ...limits };
  const [first] = parts;
  if (!first) return null;
  const sameFields = (p: PartOutcome) =>
    p.fields.length === first.fields.length && p.fields.every((f, i) => f === first.fields[i]);
  const agree = parts.every((p) => !p.fatal && p.delimiter === first.delimiter && sameFields(p));
  const rowCount = parts.reduce((n, p) => n + p.rowCount, 0);
  if (!agree || rowCount > maxRows) return null;
  if (rowCount === 0) return pooled({ ...invalid('text', 'The file has no rows.'), notes: first.notes });
  const problems: Problem[] = [];
  let offset = 0;
  for (const part of parts) {
    for (const p of part.problems) {
      if (problems.length >= maxProblems) break;
      const row = p.row === null ? null : p.row + offset;
      problems.push({ row, message: row === null ? p.message : p.message.replace(/^Row \d+/, `Row ${row}`) });
    }
    offset += part.bodyLines;
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
    notes: first.notes,
  };
}
