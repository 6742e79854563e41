import { XMLParser } from 'fast-xml-parser';
import Papa from 'papaparse';
import { readPlainCsv, rowsOfColumns } from './fast-csv.ts';
import { ParseError, type ParseLimits } from './limits.ts';

export type Row = Record<string, unknown>;

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Decodes UTF-8 text, dropping a byte order mark. */
export function decodeText(bytes: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function checkRow(row: Row, index: number, limits: ParseLimits): void {
  const keys = Object.keys(row);
  if (keys.length > limits.maxColumns) throw new ParseError(`Row ${index + 1} has more than ${limits.maxColumns} columns.`);
  for (const k of keys) {
    const v = row[k];
    if (typeof v === 'string' && v.length > limits.maxCellChars) {
      throw new ParseError(`Row ${index + 1}, column ${k}: a value is longer than ${limits.maxCellChars} characters.`);
    }
  }
}

/** What was read from CSV text, with the delimiter used and whether quotes were left unbalanced. */
export interface CsvRead {
  /** The field names of the header line. */
  fields: readonly string[];
  rowCount: number;
  /**
   * The values by column (one array per field, in order) when the fast reader read the text: no
   * row objects are built for them unless asked (`rowsOf`). Null when papaparse read the text.
   */
  columns: string[][] | null;
  /** The rows, when papaparse read the text; null when `columns` holds the values. */
  rows: Row[] | null;
  delimiter: string;
  /** The line break papaparse took from the start of the text. */
  linebreak: string;
  /** A quoted field was not closed, or a quote stood where none may (papaparse's "Quotes" errors). */
  quoteErrors: boolean;
}

/** The rows of what was read, built from its columns when the fast reader read it. */
export function rowsOf(read: CsvRead): Row[] {
  return read.rows ?? rowsOfColumns(read.fields, read.columns ?? [], read.rowCount);
}

const CSV_OPTIONS: Papa.ParseConfig<Row> = {
  header: true,
  skipEmptyLines: 'greedy',
  delimitersToGuess: [',', ';', '\t', '|'],
  transformHeader: (h: string) => h.trim(),
  // No typing, as by default; given as a function, papaparse reads its answer per column from an
  // object instead of looking the column up on `false` for every cell, a fifth of its time.
  dynamicTyping: () => false,
};

/**
 * The values of a CSV text in the common shape, read by the fast reader with the delimiter, line
 * break and field names papaparse finds at its start (the same guesses, on the same text); null
 * when papaparse must read it.
 */
function readPlain(text: string, limits: ParseLimits): CsvRead | null {
  const start = Papa.parse<Row>(text, { ...CSV_OPTIONS, preview: 1 });
  if (start.errors.length > 0 || !start.meta.fields) return null;
  const { delimiter, linebreak, fields } = start.meta;
  const plain = readPlainCsv(text, { delimiter, linebreak, fields }, limits.maxRows);
  if (!plain) return null;
  const { columns, rowCount } = plain;
  const read = { fields, rowCount, delimiter, linebreak, quoteErrors: false };
  // No value is longer than the longest record: the values need no check of their length then.
  if (plain.longest <= limits.maxCellChars) return { ...read, columns, rows: null };
  return { ...read, columns: null, rows: rowsOfColumns(fields, columns, rowCount) };
}

/** CSV with a header line; the delimiter (comma, semicolon, tab or pipe) is detected. */
export function readCsv(text: string, limits: ParseLimits): CsvRead {
  const read = readPlain(text, limits) ?? readPapa(text, limits);
  if (read.rowCount > limits.maxRows) throw new ParseError(`The file has more than ${limits.maxRows} rows.`);
  const { fields } = read;
  if (fields.length === 0 || fields.every((f) => f === '')) throw new ParseError('The CSV file has no header line.');
  if (fields.length > limits.maxColumns) throw new ParseError(`The file has more than ${limits.maxColumns} columns.`);
  read.rows?.forEach((row, i) => {
    checkRow(row, i, limits);
  });
  return read;
}

function readPapa(text: string, limits: ParseLimits): CsvRead {
  const result = Papa.parse<Row>(text, { ...CSV_OPTIONS, preview: limits.maxRows + 1 });
  const fatal = result.errors.find((e) => e.type === 'Delimiter' && result.data.length === 0);
  if (fatal) throw new ParseError(`The CSV file cannot be read: ${fatal.message}`);
  return {
    fields: result.meta.fields ?? [],
    rowCount: result.data.length,
    columns: null,
    rows: result.data,
    delimiter: result.meta.delimiter,
    linebreak: result.meta.linebreak,
    quoteErrors: result.errors.some((e) => e.type === 'Quotes'),
  };
}

/** CSV with a header line, as rows. */
export function parseCsv(text: string, limits: ParseLimits): Row[] {
  return rowsOf(readCsv(text, limits));
}

/** The depth of nested arrays and objects, measured without recursion. */
export function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() ?? [null, 0];
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

function asRows(items: unknown[], limits: ParseLimits, what: string): Row[] {
  if (items.length > limits.maxRows) throw new ParseError(`The file has more than ${limits.maxRows} rows.`);
  const rows: Row[] = [];
  items.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new ParseError(`${what} ${i + 1} is not an object.`);
    }
    const row: Row = { ...item };
    checkRow(row, i, limits);
    rows.push(row);
  });
  return rows;
}

/** A JSON array of objects, one object (a single row), or JSON lines. */
export function parseJson(text: string, limits: ParseLimits): Row[] {
  const trimmed = text.trim();
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    if (!trimmed.startsWith('{')) throw new ParseError(`The JSON file cannot be read: ${messageOf(error)}`);
    const lines = trimmed.split(/\r?\n/).filter((l) => l.trim() !== '');
    const items = lines.map((line, i) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw new ParseError(`Line ${i + 1} is not valid JSON.`);
      }
    });
    value = items;
  }
  if (depthOf(value, limits.maxDepth + 2) > limits.maxDepth + 1) {
    throw new ParseError(`The JSON is nested deeper than ${limits.maxDepth} levels.`);
  }
  return asRows(Array.isArray(value) ? value : [value], limits, 'Item');
}

/** The first list of records in an XML document: the repeated elements under the root. Entities are never expanded. */
export function parseXml(text: string, limits: ParseLimits): Row[] {
  if (/<!ENTITY/i.test(text)) throw new ParseError('XML entity declarations are not accepted.');
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    processEntities: false,
    parseTagValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
  });
  let doc: unknown;
  try {
    doc = parser.parse(text, true);
  } catch (error) {
    throw new ParseError(`The XML file cannot be read: ${messageOf(error)}`);
  }
  if (depthOf(doc, limits.maxDepth + 2) > limits.maxDepth + 1)
    throw new ParseError(`The XML is nested deeper than ${limits.maxDepth} levels.`);
  const records = findRecords(doc);
  if (!records) throw new ParseError('The XML file holds no list of records.');
  return asRows(records, limits, 'Record');
}

/** Breadth-first: the first array of objects, or the single object under a root's only child. */
function findRecords(doc: unknown): unknown[] | undefined {
  const queue: unknown[] = [doc];
  while (queue.length > 0) {
    const node = queue.shift();
    if (Array.isArray(node) && node.length > 0 && node.every((n) => n !== null && typeof n === 'object')) return node;
    if (node !== null && typeof node === 'object') queue.push(...Object.values(node));
  }
  if (doc && typeof doc === 'object') {
    const [root] = Object.values(doc);
    if (root && typeof root === 'object') {
      const [only] = Object.values(root);
      if (only && typeof only === 'object' && !Array.isArray(only)) return [only];
    }
  }
  return undefined;
}
