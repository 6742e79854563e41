import { isRecord } from '@gdb/shared/values/is-record';
import { rowSchemaOf } from './row-schema.ts';
import { BigJsonInteger, Cell, type Row, type RowProblem, type SheetValue } from './table.ts';

// Values as read (text as written, JSON values, sheet cells) converted by their field's type, the
// same way whatever the file's format: an empty value is no value, text becomes the number or the
// boolean it spells, a sheet's cell gives what the sheet shows, and nothing is rounded or changed
// in silence — what cannot be kept exact is an error of its row.

/** The type a field's values are converted to; `any` keeps them as read. */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'any';

const TYPES = new Set<unknown>(['string', 'number', 'integer', 'boolean']);

/** The type of a field's schema: its `type`, or the first non-null one of a list; `any` otherwise. */
function typeOf(field: unknown): FieldType {
  if (!isRecord(field)) return 'any';
  const { type } = field;
  const named = Array.isArray(type) ? type.find((t) => t !== 'null') : type;
  return TYPES.has(named) ? (named as FieldType) : 'any';
}

/** The type of each field the data model names (an empty map without a data model). */
export function fieldTypesOf(dataModel: Record<string, unknown> | null): Map<string, FieldType> {
  const types = new Map<string, FieldType>();
  const properties = dataModel ? rowSchemaOf(dataModel).properties : undefined;
  if (!isRecord(properties)) return types;
  for (const [name, field] of Object.entries(properties)) types.set(name, typeOf(field));
  return types;
}

/** True for the text of an empty cell: nothing, or only blanks. */
export function isBlankText(text: string): boolean {
  if (text.length === 0) return true;
  const c = text.charCodeAt(0);
  // Most texts start with a visible character: only those starting with a blank are trimmed.
  return (c <= 32 || c === 0xa0 || c === 0x1680 || c >= 0x2000) && text.trim() === '';
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
/** Letters `+` reads as a number's prefix (`0x1A`, `0o7`, `0b1`) that decimal notation never holds. */
const PREFIX = /[xob]/i;

/** The number a text spells in decimal notation (`12`, ` -1.5 `, `1e3`), or undefined. */
export function numberOfText(text: string): number | undefined {
  const n = +text;
  return Number.isFinite(n) && !isBlankText(text) && !PREFIX.test(text) ? n : undefined;
}

/** True when a text spells an integer a double cannot hold exactly (beyond ±2^53 − 1). */
export function isUnsafeIntegerText(text: string): boolean {
  return Math.abs(+text) > Number.MAX_SAFE_INTEGER && INTEGER.test(text);
}

/** The boolean a text spells (`true`, `FALSE`, `True`…), or undefined. */
export function booleanOfText(text: string): boolean | undefined {
  const t = text.trim().toLowerCase();
  return t === 'true' ? true : t === 'false' ? false : undefined;
}

/** What a value becomes in its field: a value, no value, or a problem of its row. */
type Converted = { value: unknown } | { absent: true } | { problem: string };

const ABSENT: Converted = { absent: true };

function tooLarge(field: string, digits: string, ref?: string): Converted {
  const where = ref ? `${field} (${ref})` : field;
  return { problem: `${where} is ${digits.trim()}, an integer too large to be kept exact (beyond 2^53)` };
}

function convertText(text: string, type: FieldType, field: string): Converted {
  if (isBlankText(text)) return ABSENT;
  switch (type) {
    case 'number':
    case 'integer': {
      if (isUnsafeIntegerText(text)) return tooLarge(field, text);
      const n = numberOfText(text);
      return { value: n ?? text };
    }
    case 'boolean':
      return { value: booleanOfText(text) ?? text };
    default:
      return { value: text };
  }
}

function convertNumberCell(cell: Extract<SheetValue, { kind: 'number' }>, type: FieldType, field: string): Converted {
  const unsafe = Number.isInteger(cell.value) && !Number.isSafeInteger(cell.value);
  switch (type) {
    case 'string':
      return { value: unsafe ? cell.raw : cell.shown };
    case 'number':
    case 'integer':
      return unsafe ? tooLarge(field, cell.raw, cell.ref) : { value: cell.value };
    default:
      return { value: unsafe ? cell.raw : cell.value };
  }
}

function convertCell(cell: SheetValue, type: FieldType, field: string): Converted {
  switch (cell.kind) {
    case 'number':
      return convertNumberCell(cell, type, field);
    case 'date':
      return { value: cell.iso };
    case 'boolean':
      return { value: type === 'string' ? cell.shown : cell.value };
    case 'error':
      return { problem: `${field}: ${cell.problem}` };
  }
}

/** A value as read converted to its field's type; JSON's `null` is no value, as an empty cell is. */
export function convertValue(value: unknown, type: FieldType, field: string): Converted {
  if (value === undefined || value === null) return ABSENT;
  if (typeof value === 'string') return convertText(value, type, field);
  if (value instanceof Cell) return convertCell(value.value, type, field);
  if (value instanceof BigJsonInteger) {
    return type === 'number' || type === 'integer' ? tooLarge(field, value.digits) : { value: value.digits };
  }
  return { value: plainJson(value) };
}

/** A JSON value with its big integers as their digits (they are never rounded). */
function plainJson(value: unknown): unknown {
  if (value instanceof BigJsonInteger) return value.digits;
  if (Array.isArray(value)) return value.map(plainJson);
  if (isRecord(value)) {
    const out: Row = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, plainJson(v));
    return out;
  }
  return value;
}

/** Sets a field, `__proto__` included, as an own property. */
function setOwn(row: Row, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(row, key, { value, enumerable: true, writable: true, configurable: true });
  else row[key] = value;
}

/** The rows converted, and the problems of the rows whose values could not be. */
export interface ConvertedRows {
  /** The rows to check: a field with no value is absent. */
  rows: Row[];
  /** The rows to store: a field with no value is null, in its place (the same object when a row has none). */
  stored: Row[];
  problems: RowProblem[];
  /** The indexes of the rows with a problem. */
  invalid: Set<number>;
}

/** Every row's values converted by their field's type; `lines` are the rows' own numbers in the file. */
export function convertRows(rows: readonly Row[], lines: readonly number[], types: Map<string, FieldType>): ConvertedRows {
  const out = new Array<Row>(rows.length);
  const stored = new Array<Row>(rows.length);
  const problems: RowProblem[] = [];
  const invalid = new Set<number>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Row;
    const checked: Row = {};
    let kept: Row | null = null;
    for (const key of Object.keys(row)) {
      const result = convertValue(row[key], types.get(key) ?? 'any', key);
      if ('value' in result) {
        setOwn(checked, key, result.value);
        if (kept) setOwn(kept, key, result.value);
        continue;
      }
      // No value: absent from the row checked, null in the row stored.
      kept ??= { ...checked };
      if ('absent' in result) setOwn(kept, key, null);
      else {
        problems.push({ line: lines[i] ?? i + 1, message: result.problem });
        invalid.add(i);
      }
    }
    out[i] = checked;
    stored[i] = kept ?? checked;
  }
  return { rows: out, stored, problems, invalid };
}
