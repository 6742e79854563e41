import { fitsFormat } from '../../platform/data-model-formats.ts';

// A data model inferred from an example file's rows (docs/product.md §18.2): each field's type is
// what every one of its values fits, by the rules the upload check converts values with: a row's
// text (CSV, XML, sheet text, JSON strings) may spell an integer, a number or a boolean; values
// nested in a JSON or XML field keep their JSON type. A string field takes the format date,
// date-time, time or email when every value fits it as the upload check's formats read it. A field is
// required where no row leaves it empty. Integers a double cannot hold exactly stay text (the
// upload check keeps them as their digits).

type Kind = 'integer' | 'number' | 'boolean' | 'string' | 'object' | 'array' | 'null';

const FORMATS = ['date', 'date-time', 'time', 'email'] as const;
type Format = (typeof FORMATS)[number];

/** What a field's values have shown so far. */
interface Shape {
  kinds: Set<Kind>;
  /** The formats every string so far fits. */
  formats: Set<Format>;
  /** Object values seen, and each property's shape with how many of them held it (not empty). */
  objects: number;
  properties: Map<string, { shape: Shape; present: number }>;
  items: Shape | null;
}

const newShape = (): Shape => ({ kinds: new Set(), formats: new Set(FORMATS), objects: 0, properties: new Map(), items: null });

function addString(shape: Shape, text: string): void {
  shape.kinds.add('string');
  for (const format of shape.formats) if (!fitsFormat(format, text)) shape.formats.delete(format);
}

const INTEGER = /^\s*[+-]?\d+\s*$/;
const DECIMAL = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const BOOLEAN = /^\s*(?:true|false)\s*$/i;

/** True for the text of an empty cell: nothing, or only blanks. */
function isBlank(text: string): boolean {
  if (text.length === 0) return true;
  const c = text.charCodeAt(0);
  return (c <= 32 || c === 0xa0 || c >= 0x1680) && text.trim() === '';
}

/** A row's text: empty (false), or the type it spells added. */
function addText(shape: Shape, text: string): boolean {
  if (isBlank(text)) return false;
  // Text without a format already makes the field text, whatever follows.
  if (shape.formats.size === 0 && shape.kinds.has('string')) return true;
  if (INTEGER.test(text)) {
    if (Number.isSafeInteger(+text)) shape.kinds.add('integer');
    else addString(shape, text);
  } else if (DECIMAL.test(text) && Number.isFinite(+text)) shape.kinds.add('number');
  else if (BOOLEAN.test(text)) shape.kinds.add('boolean');
  else addString(shape, text);
  return true;
}

/** A number; one beyond 2^53 written with an exponent (`1.5e300`) is a number, not an integer. */
function addNumber(shape: Shape, n: number): void {
  shape.kinds.add(Number.isSafeInteger(n) ? 'integer' : 'number');
}

/** An object's properties added; a row's own texts (`isRow`) may spell other types. */
function addObject(shape: Shape, value: Record<string, unknown>, isRow: boolean): void {
  shape.kinds.add('object');
  shape.objects += 1;
  for (const key of Object.keys(value)) {
    let property = shape.properties.get(key);
    if (!property) {
      property = { shape: newShape(), present: 0 };
      shape.properties.set(key, property);
    }
    if (addValue(property.shape, value[key], isRow)) property.present += 1;
  }
}

/** Adds a value to its field's shape; answers false for an empty one ('' text, null, absent). */
function addValue(shape: Shape, value: unknown, isRowText: boolean): boolean {
  if (value === undefined) return false;
  if (value === null) {
    shape.kinds.add('null');
    return false;
  }
  if (typeof value === 'string') {
    if (isRowText) return addText(shape, value);
    addString(shape, value);
  } else if (typeof value === 'number') addNumber(shape, value);
  else if (typeof value === 'bigint') addString(shape, value.toString());
  else if (typeof value === 'boolean') shape.kinds.add('boolean');
  else if (Array.isArray(value)) {
    shape.kinds.add('array');
    shape.items ??= newShape();
    for (const item of value) addValue(shape.items, item, false);
  } else if (typeof value === 'object') addObject(shape, value as Record<string, unknown>, false);
  return true;
}

/** The one type a field's values fit: integer with number is number; other mixes are text. */
function typeOf(kinds: ReadonlySet<Kind>): Kind {
  const set = new Set([...kinds].filter((k) => k !== 'null'));
  if (set.size === 0) return kinds.has('null') ? 'null' : 'string';
  if (set.size === 2 && set.has('integer') && set.has('number')) return 'number';
  return set.size === 1 ? ([...set][0] as Kind) : 'string';
}

function ownEntries(entries: Array<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true });
  return out;
}

/** The JSON schema of what a shape has seen. */
function schemaOf(shape: Shape): Record<string, unknown> {
  const type = typeOf(shape.kinds);
  const nullable = type !== 'null' && shape.kinds.has('null');
  const schema: Record<string, unknown> = { type: nullable ? [type, 'null'] : type };
  if (type === 'string' && shape.kinds.size === (nullable ? 2 : 1)) {
    const format = FORMATS.find((f) => shape.formats.has(f));
    if (format) schema.format = format;
  }
  if (type === 'object') Object.assign(schema, objectParts(shape));
  if (type === 'array') schema.items = shape.items && shape.items.kinds.size > 0 ? schemaOf(shape.items) : {};
  return schema;
}

function objectParts(shape: Shape): Record<string, unknown> {
  const entries = [...shape.properties];
  const required = entries.filter(([, p]) => p.present === shape.objects).map(([name]) => name);
  const properties = ownEntries(entries.map(([name, p]) => [name, schemaOf(p.shape)]));
  return required.length > 0 ? { properties, required } : { properties };
}

/** What an example file holds: rows, or a CSV file's texts by column (`columns`, one per field). */
export interface ExampleRows {
  fields: readonly string[];
  rowCount: number;
  rows: readonly Record<string, unknown>[];
  columns: readonly (readonly string[])[] | null;
}

/**
 * The data model of an example's rows: an object per row, or with `omitStartingArray` false an
 * array of them. `fields` gives the properties' order (the file's header).
 */
export function inferSchema(example: ExampleRows, omitStartingArray: boolean): Record<string, unknown> {
  const row = newShape();
  example.fields.forEach((field, i) => {
    const property = { shape: newShape(), present: 0 };
    row.properties.set(field, property);
    for (const text of example.columns?.[i] ?? []) if (addText(property.shape, text)) property.present += 1;
  });
  row.objects = example.columns ? example.rowCount : 0;
  for (const value of example.rows) addObject(row, value, true);
  const schema = { type: 'object', ...objectParts(row) };
  return omitStartingArray ? schema : { type: 'array', items: schema };
}
