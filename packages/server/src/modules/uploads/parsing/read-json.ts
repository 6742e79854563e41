import { randomBytes } from 'node:crypto';
import { errorMessage } from '../../../platform/error-message.ts';
import { refuseRepeatedKeys } from './json-keys.ts';
import { ParseError, type ParseLimits } from './limits.ts';
import { refuseWithoutModelFields } from './model-fields.ts';
import { BigJsonInteger, type Note, type ReadHints, type ReadTable, type Row } from './table.ts';
import { decodeText } from './text-encoding.ts';

/** The depth of nested arrays and objects, measured without recursion. */
export function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() ?? [null, 0];
    if (v === null || typeof v !== 'object' || v instanceof BigJsonInteger) continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

const MAX_SAFE = String(Number.MAX_SAFE_INTEGER);
// A JSON string (skipped) or a number; an integer's digits are in group 1.
const TOKENS = /"(?:[^"\\]|\\.)*"|(-?\d+)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

function beyondDoubles(digits: string): boolean {
  const abs = digits.startsWith('-') ? digits.slice(1) : digits;
  return abs.length > MAX_SAFE.length || (abs.length === MAX_SAFE.length && abs > MAX_SAFE);
}

/**
 * JSON.parse keeping the integers a double cannot hold as {@link BigJsonInteger}: each is written as
 * a string carrying a random mark before parsing (no string of the file can carry it), and turned
 * back after. Texts without a run of 16 digits, nearly all, are parsed as they are.
 */
function parseExact(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const mark = `\u0000${randomBytes(12).toString('hex')}:`;
  let found = false;
  const marked = text.replace(TOKENS, (token: string, integer: string | undefined) => {
    if (integer === undefined || integer.length !== token.length || !beyondDoubles(integer)) return token;
    found = true;
    return `"\\u0000${mark.slice(1)}${integer}"`;
  });
  return found ? unmarked(JSON.parse(marked), mark) : JSON.parse(text);
}

/** The marked strings turned into {@link BigJsonInteger}, without recursion (a reviver recurses, and overflows on deep documents). */
function unmarked(value: unknown, mark: string): unknown {
  const big = (v: unknown) => (typeof v === 'string' && v.startsWith(mark) ? new BigJsonInteger(v.slice(mark.length)) : v);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        node[i] = big(node[i]);
        stack.push(node[i]);
      }
    } else if (isObject(node)) {
      for (const key of Object.keys(node)) {
        node[key] = big(node[key]);
        stack.push(node[key]);
      }
    }
  }
  return big(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof BigJsonInteger);
}

/**
 * The property of a top-level object that holds its records (`{"data": [...]}`): its only array,
 * when it is the object's one property; beside others, when its objects name data model fields and
 * no other property is one (else the object is one row that has a list in it).
 */
function recordsProperty(value: Record<string, unknown>, hints: ReadHints): string | undefined {
  const keys = Object.keys(value);
  const arrays = keys.filter((k) => Array.isArray(value[k]));
  const [key] = arrays;
  if (arrays.length !== 1 || key === undefined) return undefined;
  if (keys.length === 1) return key;
  const items = value[key];
  const isField = (k: string) => hints.fields.includes(k);
  const [first] = Array.isArray(items) && items.every(isObject) ? items : [];
  const named = isObject(first) && Object.keys(first).some(isField);
  return named && !keys.some((k) => k !== key && isField(k)) ? key : undefined;
}

/** The items of a JSON document with their numbers: an array's positions, or JSON lines' line numbers. */
function itemsOf(text: string, hints: ReadHints): { items: unknown[]; lines: number[]; notes: Note[] } {
  const trimmed = text.trim();
  let value: unknown;
  try {
    value = parseExact(trimmed);
  } catch (error) {
    if (!trimmed.startsWith('{')) throw new ParseError(`The JSON file cannot be read: ${errorMessage(error)}`);
    return jsonLines(text);
  }
  refuseRepeatedKeys(trimmed, value);
  if (Array.isArray(value)) return { items: value, lines: value.map((_, i) => i + 1), notes: [] };
  const key = isObject(value) ? recordsProperty(value, hints) : undefined;
  const items = isObject(value) && key !== undefined ? value[key] : undefined;
  if (!isObject(value) || !Array.isArray(items)) return { items: [value], lines: [1], notes: [] };
  const others = Object.keys(value).filter((k) => k !== key);
  const unread = others.length > 0 ? `; the other properties (${others.join(', ')}) are not read` : '';
  return {
    items,
    lines: items.map((_, i) => i + 1),
    notes: [{ level: 'info', message: `The rows are the items of "${key}"${unread}.` }],
  };
}

/** One JSON value per line (JSON lines), numbered by their lines; blank lines skipped. */
function jsonLines(text: string): { items: unknown[]; lines: number[]; notes: Note[] } {
  const items: unknown[] = [];
  const lines: number[] = [];
  text.split(/\r\n|\n|\r/).forEach((line, i) => {
    if (line.trim() === '') return;
    let item: unknown;
    try {
      item = parseExact(line);
    } catch {
      throw new ParseError(`Line ${i + 1} is not valid JSON.`);
    }
    refuseRepeatedKeys(line, item, `Line ${i + 1}`);
    items.push(item);
    lines.push(i + 1);
  });
  return { items, lines, notes: [] };
}

function checkRow(row: Row, line: number, limits: ParseLimits): void {
  const keys = Object.keys(row);
  if (keys.length > limits.maxColumns) throw new ParseError(`Row ${line} has more than ${limits.maxColumns} columns.`);
  for (const key of keys) {
    const v = row[key];
    if (typeof v === 'string' && v.length > limits.maxCellChars) {
      throw new ParseError(`Row ${line}, column ${key}: a value is longer than ${limits.maxCellChars} characters.`);
    }
  }
}

/** Objects as rows, each checked against the limits; the fields are their keys in the order first seen. */
export function tableOf(items: readonly unknown[], lines: number[], limits: ParseLimits, what: string): ReadTable {
  if (items.length > limits.maxRows) throw new ParseError(`The file has more than ${limits.maxRows} rows.`);
  const fields = new Set<string>();
  const rows = items.map((item, i) => {
    const line = lines[i] ?? i + 1;
    if (!isObject(item)) throw new ParseError(`${what} ${line} is not an object.`);
    checkRow(item, line, limits);
    for (const key of Object.keys(item)) fields.add(key);
    return item;
  });
  return { fields: [...fields], rows, lines, rowProblems: [], notes: [] };
}

/**
 * A JSON array of objects, JSON lines, an object holding one array of them (`{"data": [...]}`), or
 * one object (a single row). Integers beyond 2^53 are kept as written ({@link BigJsonInteger}).
 */
export function readJson(text: string, hints: ReadHints, limits: ParseLimits): ReadTable {
  const { items, lines, notes } = itemsOf(text, hints);
  if (depthOf(items, limits.maxDepth + 2) > limits.maxDepth + 1) {
    throw new ParseError(`The JSON is nested deeper than ${limits.maxDepth} levels.`);
  }
  const table = tableOf(items, lines, limits, 'Item');
  refuseWithoutModelFields(table.fields, hints, "The JSON file's objects hold");
  return { ...table, notes };
}

/** A JSON file's bytes read in their encoding, the log told which. */
export function readJsonFile(bytes: Uint8Array, hints: ReadHints, limits: ParseLimits): ReadTable {
  const { text, note } = decodeText(bytes);
  const read = readJson(text, hints, limits);
  return { ...read, notes: [note, ...read.notes] };
}
