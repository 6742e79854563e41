import { MIME_GROUPS, type MimeGroup } from '@gdb/shared/reference/mimetypes';
import { type FileHead, HEAD_SAMPLES } from '@gdb/shared/uploads/column-mapping.schemas';
import { type ColumnChoice, matchFieldsOf, normaliseName } from '@gdb/shared/uploads/column-matcher';
import { convertValue, isBlankText } from './convert.ts';
import { detectFormat, formatsOf } from './detect.ts';
import { NoHeaderRowError } from './excel/choose-sheet.ts';
import { readWorkbook } from './excel/index.ts';
import { DEFAULT_LIMITS, type ParseLimits } from './limits.ts';
import { failureMessage } from './parse-file.ts';
import { readCsvFile } from './read-csv.ts';
import type { ReadHints, ReadTable } from './table.ts';

// A chosen file's header and first values, read by the check's readers for the wizard's column
// mapping: a workbook's sheet and header row as the check finds them once a mapping names that
// header's columns, its cells as the check sees them. Only the head is read where the reader allows.

/** A file whose head is read in a parse worker, for a data source of this content type group. */
export interface HeadRequest {
  kind: 'head';
  bytes: Uint8Array;
  group: MimeGroup;
  /** The data source's data model: a header row is one naming its fields in any spelling the matcher takes. */
  dataModel: Record<string, unknown> | null;
  /** The data source's stored column mappings: the columns they map name the fields too. */
  columnMappings?: ColumnChoice[][];
  limits?: Partial<ParseLimits>;
}

/** The head read, or why the file cannot be read. */
export type HeadOutcome = { kind: 'head'; head: FileHead } | { kind: 'head'; refused: string };

/** Why a file of a data source that takes neither CSV files nor workbooks has no head to map. */
export const HEADS_ONLY_OF = 'Columns are mapped for CSV files and workbooks only.';

/** Rows under the header read for sample values. */
const HEAD_ROWS = 100;
/** Characters a sample value shows at most. */
const SAMPLE_CHARS = 200;

/** The names a header row may spell a field by: the fields', their titles', alternate names' and mapped columns', normalised. */
function nearNames(dataModel: Record<string, unknown> | null, mappings: readonly ColumnChoice[][] | undefined): Set<string> {
  const names = new Set<string>();
  const add = (name: string) => {
    const key = normaliseName(name);
    if (key !== '') names.add(key);
  };
  for (const field of dataModel ? matchFieldsOf(dataModel) : []) {
    add(field.name);
    if (field.title !== undefined) add(field.title);
    for (const alias of field.aliases) add(alias);
  }
  for (const mapping of mappings ?? []) for (const c of mapping) if (c.field !== null) add(c.column);
  return names;
}

/**
 * A workbook's head: the first visible sheet with a row (among its first rows holding values) that
 * names a field in some spelling; when none has one, the first visible sheet's first row with values.
 */
function workbookHead(bytes: Uint8Array, format: 'xlsx' | 'xls', near: Set<string>, limits: ParseLimits): ReadTable {
  if (near.size > 0) {
    const hints: ReadHints = { fields: [...near], required: [], head: { names: near, rows: HEAD_ROWS } };
    try {
      return readWorkbook(bytes, format, hints, limits);
    } catch (error) {
      // No sheet names a field: the header is the first visible sheet's first row, read below.
      if (!(error instanceof NoHeaderRowError)) throw error;
    }
  }
  return readWorkbook(bytes, format, { fields: [], required: [], head: { names: new Set(), rows: HEAD_ROWS } }, limits);
}

const shortened = (value: string) => (value.length > SAMPLE_CHARS ? `${value.slice(0, SAMPLE_CHARS - 1)}…` : value);

/** Each column's first non-empty values, as a text field of the check would hold them. */
function tableHead(table: ReadTable): FileHead {
  const samples = table.fields.map((field) => {
    const values: string[] = [];
    for (const row of table.rows) {
      if (values.length >= HEAD_SAMPLES) break;
      const converted = convertValue(row[field], 'string', field);
      if ('value' in converted && typeof converted.value === 'string' && !isBlankText(converted.value)) {
        values.push(shortened(converted.value.trim()));
      }
    }
    return values;
  });
  return { columns: [...table.fields], samples };
}

/** A CSV file's head: the CSV reader reads the whole text (it cannot stop early), the header as the check reads it. */
function csvHead(bytes: Uint8Array, limits: ParseLimits): FileHead {
  const read = readCsvFile(bytes, { fields: [], required: [] }, limits);
  const samples = read.columns.map((column) => {
    const values: string[] = [];
    for (const text of column) {
      if (values.length >= HEAD_SAMPLES) break;
      if (!isBlankText(text)) values.push(shortened(text.trim()));
    }
    return values;
  });
  return { columns: [...read.fields], samples };
}

/** Reads a file's head for its data source's content type; never throws for a bad file, it answers why. */
export function readHead(request: HeadRequest): HeadOutcome {
  const limits = { ...DEFAULT_LIMITS, ...request.limits };
  const { bytes, group } = request;
  const refused = (message: string): HeadOutcome => ({ kind: 'head', refused: message });
  if (bytes.length === 0) return refused('The file is empty.');
  const format = detectFormat(bytes);
  if (group !== 'excel' && group !== 'csv') return refused(HEADS_ONLY_OF);
  if (!formatsOf(group).includes(format)) {
    const what = group === 'excel' ? 'an Excel workbook' : 'a CSV file';
    return refused(`The file is not ${what} (${MIME_GROUPS[group].extensions.join(', ')} expected).`);
  }
  try {
    if (format === 'xlsx' || format === 'xls') {
      const near = nearNames(request.dataModel, request.columnMappings);
      return { kind: 'head', head: tableHead(workbookHead(bytes, format, near, limits)) };
    }
    return { kind: 'head', head: csvHead(bytes, limits) };
  } catch (error) {
    return refused(failureMessage(error));
  }
}
