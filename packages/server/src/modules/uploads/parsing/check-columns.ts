import { isRecord } from '@gdb/shared/values/is-record';
import { Ajv, type ValidateFunction } from 'ajv';
import { addDataModelFormats } from '../../../platform/data-model-formats.ts';
import { CODE_SHARE, type CodedColumn } from '../../../platform/files/row-tables.ts';
import { linearRegExp } from '../../../platform/linear-regexp.ts';
import { booleanOfText, type FieldType, isBlankText, isUnsafeIntegerText, numberOfText } from './convert.ts';
import { keptCheck } from './kept-checks.ts';
import { rowSchemaOf } from './row-schema.ts';

// A CSV file's values checked a column at a time, without building a row object: for data models
// made of what a CSV file can hold (fields of one plain type with patterns, formats, lists and
// bounds), the common case. It only ever vouches for a file whose every row the row check
// (check-rows.ts) would pass, with the same values after coercion; for anything else — a keyword
// it does not know, a value it does not pass — it answers null, and the rows are checked one by one
// by the row check, which words the problems.

/** The keywords of the row schema this check knows (annotations included). */
const ROW_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'title', 'description', '$comment']);

/** The keywords of a field's schema this check knows: each applies to the field's value alone. */
const FIELD_KEYWORDS = new Set([
  'type',
  'pattern',
  'format',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'title',
  'description',
  '$comment',
  'examples',
  'default',
  // Alternate names of the field, for matching a file's columns (an annotation).
  'x-aliases',
]);

const FIELD_TYPES = new Set<unknown>(['string', 'number', 'integer', 'boolean']);

/**
 * A text (not blank) as convert.ts converts it for a field of the type; undefined when the row
 * check would not pass it as it is (an integer too large to keep, not a number).
 */
function coerce(type: FieldType, text: string): unknown {
  switch (type) {
    case 'string':
    case 'any':
      return text;
    case 'number':
      return isUnsafeIntegerText(text) ? undefined : numberOfText(text);
    case 'integer': {
      if (isUnsafeIntegerText(text)) return undefined;
      const n = numberOfText(text);
      return n !== undefined && Number.isInteger(n) ? n : undefined;
    }
    case 'boolean':
      return booleanOfText(text);
  }
}

interface FieldCheck {
  type: FieldType;
  validate: ValidateFunction;
}

/** The check of each field, or null when the data model holds something this check does not know. */
function fieldChecks(dataModel: Record<string, unknown>): Map<string, FieldCheck> | null {
  const schema = rowSchemaOf(dataModel);
  if (!Object.keys(schema).every((k) => ROW_KEYWORDS.has(k))) return null;
  if (schema.type !== undefined && schema.type !== 'object') return null;
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) return null;
  // Patterns run in linear time (docs/decisions.md).
  const ajv = new Ajv({
    allErrors: false,
    coerceTypes: false,
    strict: false,
    useDefaults: false,
    inlineRefs: false,
    code: { regExp: linearRegExp },
  });
  addDataModelFormats(ajv);
  const checks = new Map<string, FieldCheck>();
  for (const [name, field] of Object.entries(properties)) {
    if (!isRecord(field) || !Object.keys(field).every((k) => FIELD_KEYWORDS.has(k))) return null;
    if (field.type !== undefined && !FIELD_TYPES.has(field.type)) return null;
    checks.set(name, { type: (field.type as FieldType | undefined) ?? 'any', validate: ajv.compile(field) });
  }
  return checks;
}

/** Distinct texts remembered per column of values to coerce: a column of a few distinct values is checked once per value. */
const MEMO_LIMIT = 4096;

/**
 * The columns' values checked against the data model and coerced to its types (a new array for a
 * column whose values change; a column of texts that repeat coded as a stored table codes it,
 * see platform/files/row-tables.ts), when every row passes; null when a row does not, or when the
 * data model holds more than this check knows: the rows are then checked one by one. The checks
 * compiled are kept by `modelKey` (kept-checks.ts).
 */
export function checkColumns(
  fields: readonly string[],
  columns: readonly string[][],
  dataModel: Record<string, unknown>,
  modelKey?: string,
): (unknown[] | CodedColumn)[] | null {
  const checks = keptCheck(modelKey, 'columns', () => fieldChecks(dataModel));
  if (checks === null) return null;
  const schema = rowSchemaOf(dataModel);
  const present = new Set(fields);
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((r) => typeof r === 'string' && present.has(r))) return null;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== true) {
    if (schema.additionalProperties !== false || !fields.every((f) => checks.has(f))) return null;
  }
  const out: (unknown[] | CodedColumn)[] = [];
  for (let c = 0; c < fields.length; c++) {
    const field = fields[c] as string;
    const values = columns[c] as string[];
    const check = checks.get(field);
    if (!check) {
      out.push(blanksAsNull(values));
      continue;
    }
    const checked = columnChecked(values, { ...check, required: required.includes(field) });
    if (!checked) return null;
    out.push(checked);
  }
  return out;
}

/** A column's texts with the blank ones (no value) as null, as the row check stores them. */
export function blanksAsNull(values: string[]): (string | null)[] {
  return values.some(isBlankText) ? values.map((text) => (isBlankText(text) ? null : text)) : values;
}

/** A field's check, and whether the data model requires it. */
type ColumnCheck = FieldCheck & { required: boolean };

/**
 * A text's value in a column of texts: itself when it passes, null when blank (no value) in an
 * optional field, undefined when the row check would not pass it.
 */
function textValue(text: string, check: ColumnCheck): string | null | undefined {
  if (isBlankText(text)) return check.required ? undefined : null;
  return check.validate(text) ? text : undefined;
}

function columnChecked(values: string[], check: ColumnCheck): unknown[] | CodedColumn | null {
  const { type, validate } = check;
  if (type === 'string' || type === 'any') return textsChecked(values, check);
  const out = new Array<unknown>(values.length);
  let memo: Map<string, unknown> | null = new Map();
  for (let r = 0; r < values.length; r++) {
    const text = values[r] as string;
    let value = memo?.get(text);
    if (value === undefined) {
      if (isBlankText(text)) {
        if (check.required) return null;
        value = null;
      } else {
        value = coerce(type, text);
        if (value === undefined || !validate(value)) return null;
      }
      if (memo) {
        if (memo.size < MEMO_LIMIT) memo.set(text, value);
        else memo = null;
      }
    }
    out[r] = value;
  }
  return out;
}

/**
 * A column of texts checked as they are, each distinct text once while they repeat enough to be
 * coded (and then answered coded), every text once they do not; blank texts are null (no value).
 */
function textsChecked(values: string[], check: ColumnCheck): (string | null)[] | CodedColumn | null {
  const limit = Math.floor(values.length / CODE_SHARE);
  let index: Map<string, number> | null = new Map();
  const distinct: (string | null)[] = [];
  const codes = new Array<number>(values.length);
  for (let r = 0; r < values.length; r++) {
    const text = values[r] as string;
    const code = index?.get(text);
    if (code !== undefined) {
      codes[r] = code;
      continue;
    }
    const value = textValue(text, check);
    if (value === undefined) return null;
    if (index === null) continue;
    if (index.size >= limit) index = null;
    else {
      codes[r] = index.size;
      index.set(text, index.size);
      distinct.push(value);
    }
  }
  return index === null ? blanksAsNull(values) : { values: distinct, codes };
}
