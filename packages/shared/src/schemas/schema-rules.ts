// The node rules of the schema editor: which children a node takes, which options each type has
// and the limits of their values, and how typed values are read from text.
import { linearPatternError } from './linear-pattern.ts';
import { NAMED_PARENTS, type NodeKind, SCHEMA_KINDS, type SchemaNode, valuesOf } from './schema-nodes.ts';

/** What the editor shows, and the server answers with the field's path, for a pattern the linear-time engine cannot run. */
export const LINEAR_PATTERN_MESSAGE =
  'Pattern cannot be checked in linear time: backreferences, lookahead and lookbehind are not supported';

const has = (node: SchemaNode, kind: NodeKind) => node.children.some((c) => c.kind === kind);

/** The messages of the node rules, shown by the editor and answered by the server for a data model that breaks one. */
export const RULE_MESSAGES = {
  nameRequired: 'The name is required',
  nameUsed: (name: string) => `The name ${name} is already used here`,
  cannotTake: (parent: NodeKind, kind: NodeKind) => `A ${parent} node cannot take a ${kind} node here`,
  notOfType: (text: string, kind: NodeKind) => `The value ${text} is not of type ${kind}`,
  listedTwice: 'This value is already listed',
  notAProperty: (name: string) => `${name} is not a property of this object`,
} as const;

/**
 * The kinds of child `node` accepts now, given the children it already has: an object takes
 * properties, required, dependencies and enum once each (required and dependencies only once it
 * has properties); an array one child (its items); integer, number and string only an enum; the
 * root one definitions child and one type child.
 */
export function allowedChildren(node: SchemaNode): NodeKind[] {
  switch (node.kind) {
    case 'jsonSchema': {
      const out: NodeKind[] = [];
      if (!has(node, 'definitions')) out.push('definitions');
      if (!node.children.some((c) => c.kind !== 'definitions')) out.push(...SCHEMA_KINDS);
      return out;
    }
    case 'object': {
      const out: NodeKind[] = [];
      if (!has(node, 'properties')) out.push('properties');
      if (has(node, 'properties') && !has(node, 'required')) out.push('required');
      if (has(node, 'properties') && !has(node, 'dependencies')) out.push('dependencies');
      if (!has(node, 'enum')) out.push('enum');
      return out;
    }
    case 'array':
      return node.children.length === 0 ? ['items'] : [];
    case 'integer':
    case 'number':
    case 'string':
      return has(node, 'enum') ? [] : ['enum'];
    case 'properties':
    case 'definitions':
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      return [...SCHEMA_KINDS];
    case 'items':
      return node.options.tuple || node.children.length === 0 ? [...SCHEMA_KINDS] : [];
    case 'not':
      return node.children.length === 0 ? [...SCHEMA_KINDS] : [];
    case 'dependencies':
      return ['dependencyItem'];
    case 'dependencyItem':
      // A dependency is a list of property names or one schema, never both.
      return node.children.length === 0 && valuesOf(node).length === 0 ? [...SCHEMA_KINDS] : [];
    default:
      return [];
  }
}

/** Whether `kind` may be appended to `node` now. */
export const canAppend = (node: SchemaNode, kind: NodeKind): boolean => allowedChildren(node).includes(kind);

/** Whether a node under `parent` (null: the root) carries a name the author chooses. */
export const isNamedBy = (parent: SchemaNode | null): boolean => parent === null || NAMED_PARENTS.includes(parent.kind);

/** One option of a node as the property inspector edits it. */
export interface OptionField {
  key: string;
  label: string;
  input: 'text' | 'integer' | 'number' | 'boolean' | 'select' | 'json';
  choices?: readonly string[];
  /** Smallest value allowed. */
  min?: number;
  /** The value must be above this one (not equal). */
  above?: number;
  max?: number;
}

const COMMON: OptionField[] = [
  { key: 'title', label: 'Title', input: 'text' },
  { key: 'description', label: 'Description', input: 'text' },
];
const DEFAULT: OptionField = { key: 'default', label: 'Default', input: 'json' };

const STRING_FORMATS = ['date', 'date-time', 'time', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uuid', 'regex'] as const;

/** The least and the most of a count (`minLength` and `maxLength`, …): whole numbers from 0. */
function countBounds(suffix: string, label: string): OptionField[] {
  return [
    { key: `min${suffix}`, label: `Min ${label}`, input: 'integer', min: 0 },
    { key: `max${suffix}`, label: `Max ${label}`, input: 'integer', min: 0 },
  ];
}

/** The options of an integer or a number: its bounds, and what it is a multiple of (`step` bounds that). */
function numericFields(input: 'integer' | 'number', step: Pick<OptionField, 'min' | 'above'>): OptionField[] {
  return [
    ...COMMON,
    { key: 'minimum', label: 'Minimum', input },
    { key: 'maximum', label: 'Maximum', input },
    { key: 'multipleOf', label: 'Multiple of', input, ...step },
    DEFAULT,
  ];
}

/** The options the inspector offers for a node kind. */
export function optionFields(kind: NodeKind): OptionField[] {
  switch (kind) {
    case 'object':
      return [
        ...COMMON,
        { key: 'additionalProperties', label: 'Additional properties', input: 'boolean' },
        ...countBounds('Properties', 'properties'),
      ];
    case 'string':
      return [
        ...COMMON,
        ...countBounds('Length', 'length'),
        { key: 'pattern', label: 'Pattern', input: 'text' },
        { key: 'format', label: 'Format', input: 'select', choices: STRING_FORMATS },
        DEFAULT,
      ];
    case 'integer':
      return numericFields('integer', { min: 1 });
    case 'number':
      return numericFields('number', { above: 0 });
    case 'array':
      return [
        ...COMMON,
        ...countBounds('Items', 'items'),
        { key: 'uniqueItems', label: 'Unique items', input: 'boolean' },
        { key: 'columns', label: 'Columns', input: 'integer', min: 1, max: 12 },
      ];
    case 'boolean':
      return [...COMMON, DEFAULT];
    case 'null':
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
    case 'not':
      return [...COMMON];
    case 'ref':
      return [{ key: '$ref', label: 'Reference', input: 'text' }, ...COMMON];
    case 'jsonSchema':
      return [{ key: '$schema', label: '$schema', input: 'text' }];
    default:
      return [];
  }
}

/** Why `value` cannot be the option `field`, or null when it can (empty means unset). */
export function optionError(field: OptionField, value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (field.input === 'integer' && (typeof value !== 'number' || !Number.isInteger(value)))
    return `${field.label} must be an integer`;
  if (field.input === 'number' && (typeof value !== 'number' || !Number.isFinite(value)))
    return `${field.label} must be a number`;
  if (typeof value === 'number') {
    if (field.min !== undefined && value < field.min) return `${field.label} must be at least ${field.min}`;
    if (field.above !== undefined && value <= field.above) return `${field.label} must be greater than ${field.above}`;
    if (field.max !== undefined && value > field.max) return `${field.label} must be at most ${field.max}`;
  }
  if (field.key === 'pattern' && typeof value === 'string') {
    try {
      new RegExp(value);
    } catch {
      return 'Pattern is not a valid regular expression';
    }
    if (linearPatternError(value) !== null) return LINEAR_PATTERN_MESSAGE;
  }
  return null;
}

/** Whether a JSON value matches a node type (what an enum value or a default must satisfy). */
export function matchesType(kind: NodeKind, value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** Reads a JSON text; its error otherwise. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: `Invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** An enum value typed in the editor: valid JSON that matches the type of the enum's parent. */
export function parseEnumValue(text: string, parentKind: NodeKind): Parsed {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  if (!matchesType(parentKind, parsed.value)) return { ok: false, error: RULE_MESSAGES.notOfType(text, parentKind) };
  return parsed;
}

/** The value-schema editor: text coerced to a string, number, integer or boolean. */
export function coerceValue(text: string, kind: NodeKind): Parsed {
  switch (kind) {
    case 'number':
    case 'integer': {
      const n = Number(text.trim());
      if (text.trim() === '' || !Number.isFinite(n)) return { ok: false, error: `${text} is not a number` };
      if (kind === 'integer' && !Number.isInteger(n)) return { ok: false, error: `${text} is not an integer` };
      return { ok: true, value: n };
    }
    case 'boolean': {
      const t = text.trim().toLowerCase();
      if (t === 'true' || t === '1') return { ok: true, value: true };
      if (t === 'false' || t === '0') return { ok: true, value: false };
      return { ok: false, error: `${text} is not a boolean` };
    }
    case 'string':
      return { ok: true, value: text };
    default:
      return parseJson(text);
  }
}
