/**
 * The form library's field schema: a JSON schema whose fields carry `ui`, `rules`, `value`,
 * `default` and `valueTemplate`, and whose root carries the form's `globalConfig`. Normalising
 * checks the root, fills the defaults of every field and turns the JSON-schema keywords the stored
 * data models use (required, minLength, pattern, enum, format …) into rules.
 */

type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'HTML' | 'COMP';

interface HelpOption {
  show?: boolean;
  content?: string;
  text?: string;
}

export interface PreviewOption {
  type?: 'image' | 'link' | 'video' | 'audio';
  value?: string;
  clearable?: boolean;
}

interface LinkField {
  fieldPath: string;
  rules?: string[];
}

interface FieldUi {
  label: string;
  legend: string;
  showLabel: boolean;
  showLegend: boolean;
  noLabelSpace: boolean;
  widget: string;
  widgetConfig: Record<string, unknown>;
  hidden: unknown;
  disabled: unknown;
  readonly: unknown;
  placeholder: string;
  description: string;
  help: HelpOption;
  /** Span of 12. */
  columns: number;
  preview?: PreviewOption;
  linkFields: LinkField[];
}

export interface FieldSchema {
  type: FieldType;
  title?: string;
  ui: FieldUi;
  rules: Record<string, unknown>;
  value?: unknown;
  default?: unknown;
  valueTemplate?: unknown;
  properties?: Record<string, FieldSchema>;
  items?: FieldSchema;
  enum?: unknown[];
  [keyword: string]: unknown;
}

export interface ScrollToFailField {
  enabled: boolean;
  container: string;
  duration: number;
  offset: number;
}

interface GlobalConfig {
  style: { formCls: string; invalidFeedbackCls: string };
  validationMsg: Record<string, string>;
  constants: Record<string, unknown>;
  ignoreRulesWhenHidden: boolean;
  scrollToFailField: ScrollToFailField;
}

export interface RootSchema extends FieldSchema {
  type: 'object';
  globalConfig: GlobalConfig;
}

export const ROOT_NOT_OBJECT = 'fromSchema must be a json object';
export const ROOT_TYPE_NOT_OBJECT = "fromSchema' root field type must be object";
export const ROOT_NOT_JSON = 'fromSchema must be a valid json format';
const DEFAULT_COLUMNS = 12;

const defaultGlobalConfig = (): GlobalConfig => ({
  style: { formCls: '', invalidFeedbackCls: '' },
  validationMsg: {},
  constants: {},
  ignoreRulesWhenHidden: true,
  scrollToFailField: { enabled: true, container: 'body', duration: 500, offset: -80 },
});

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** JSON-schema keywords that are also rules of the form library. */
const KEYWORD_RULES = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minProperties',
  'maxProperties',
  'pattern',
] as const;
const FORMAT_RULES: Record<string, string> = {
  email: 'email',
  uri: 'url',
  url: 'url',
  ipv4: 'ipv4',
  ipv6: 'ipv6',
  date: 'date',
  'date-time': 'rfc3339DateTime',
};
const TYPES = new Set<string>(['string', 'number', 'integer', 'boolean', 'object', 'array', 'HTML', 'COMP']);

function typeOf(raw: Record<string, unknown>): FieldType {
  const t = Array.isArray(raw.type) ? raw.type.find((x) => x !== 'null') : raw.type;
  if (typeof t === 'string' && TYPES.has(t)) return t as FieldType;
  if (isPlainObject(raw.properties)) return 'object';
  if (raw.items !== undefined) return 'array';
  return 'string';
}

const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

function defaultWidget(type: FieldType, raw: Record<string, unknown>): string {
  if (type === 'boolean') return 'radio';
  if (type === 'object') return 'object';
  if (type === 'array') return 'array';
  if (Array.isArray(raw.enum)) return 'select';
  return 'input';
}

function rulesOf(raw: Record<string, unknown>, required: boolean): Record<string, unknown> {
  const rules: Record<string, unknown> = isPlainObject(raw.rules) ? { ...raw.rules } : {};
  if (required && rules.required === undefined) rules.required = true;
  for (const k of KEYWORD_RULES) if (raw[k] !== undefined && rules[k] === undefined) rules[k] = raw[k];
  // Draft 4: exclusiveMinimum/Maximum as a flag on minimum/maximum.
  for (const [flag, bound, rule] of [
    ['exclusiveMinimum', 'minimum', 'exclusiveMinimum'],
    ['exclusiveMaximum', 'maximum', 'exclusiveMaximum'],
  ] as const) {
    if (typeof rules[flag] === 'boolean') {
      if (rules[flag] && typeof raw[bound] === 'number') {
        rules[rule] = raw[bound];
        delete rules[bound];
      } else delete rules[flag];
    }
  }
  const format = typeof raw.format === 'string' ? FORMAT_RULES[raw.format] : undefined;
  if (format && rules[format] === undefined) rules[format] = true;
  return rules;
}

/** Definitions of the schema being normalised, for `$ref: '#/definitions/x'`. */
let definitions: Record<string, unknown> = {};

function resolved(raw: unknown): unknown {
  if (!isPlainObject(raw) || typeof raw.$ref !== 'string' || !raw.$ref.startsWith('#/definitions/')) return raw;
  const { $ref, ...rest } = raw;
  const target = definitions[$ref.slice('#/definitions/'.length)];
  return isPlainObject(target) ? { ...target, ...rest } : rest;
}

function fieldOf(name: string, raw: unknown, required: boolean, depth: number): FieldSchema {
  if (depth > 64) throw new Error('The form schema is nested too deeply');
  const source = isPlainObject(resolved(raw)) ? (resolved(raw) as Record<string, unknown>) : {};
  const type = typeOf(source);
  const ui = isPlainObject(source.ui) ? source.ui : {};
  const label = typeof source.title === 'string' ? source.title : name;
  const isLayout = type === 'object' || type === 'array';
  const widget = kebab(typeof ui.widget === 'string' && ui.widget ? ui.widget : defaultWidget(type, source));
  const help = isPlainObject(ui.help)
    ? (ui.help as HelpOption)
    : typeof ui.help === 'string'
      ? { show: true, content: ui.help }
      : {};
  const columns = Number(ui.columns);
  const field: FieldSchema = {
    ...source,
    type,
    ui: {
      label,
      legend: label,
      showLabel: true,
      showLegend: isLayout,
      noLabelSpace: type === 'HTML' || type === 'COMP',
      hidden: false,
      disabled: false,
      readonly: false,
      placeholder: '',
      description: '',
      ...ui,
      widget,
      widgetConfig: isPlainObject(ui.widgetConfig) ? { ...ui.widgetConfig } : {},
      help,
      columns: Number.isInteger(columns) && columns >= 1 && columns <= 12 ? columns : DEFAULT_COLUMNS,
      linkFields: Array.isArray(ui.linkFields)
        ? ui.linkFields.map((l) => (typeof l === 'string' ? { fieldPath: l } : (l as LinkField)))
        : [],
    } as FieldUi,
    rules: rulesOf(source, required),
  };
  if (type === 'object') {
    const props = isPlainObject(source.properties) ? source.properties : {};
    const requiredNames = Array.isArray(source.required) ? (source.required as unknown[]) : [];
    field.properties = Object.fromEntries(
      Object.entries(props).map(([key, child]) => [key, fieldOf(key, child, requiredNames.includes(key), depth + 1)]),
    );
  }
  if (type === 'array') field.items = fieldOf(name, source.items, false, depth + 1);
  return field;
}

function deepMerge<T>(base: T, over: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = deepMerge((base as Record<string, unknown>)[k], v);
  return out as T;
}

/** Checks the root and fills every field's defaults; throws the form library's root errors. */
export function normaliseSchema(input: unknown): RootSchema {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch {
      throw new Error(ROOT_NOT_JSON);
    }
  }
  if (!isPlainObject(raw)) throw new Error(ROOT_NOT_OBJECT);
  if (raw.type !== 'object') throw new Error(ROOT_TYPE_NOT_OBJECT);
  definitions = isPlainObject(raw.definitions) ? raw.definitions : {};
  const root = fieldOf('', raw, false, 0) as RootSchema;
  definitions = {};
  root.ui.label = typeof raw.title === 'string' ? raw.title : '';
  root.ui.legend = root.ui.label;
  root.globalConfig = deepMerge(defaultGlobalConfig(), raw.globalConfig);
  return root;
}

/** The empty value of a type: '' for texts and numbers, false, {} or []. */
function emptyOf(type: FieldType): unknown {
  if (type === 'boolean') return false;
  if (type === 'object') return {};
  if (type === 'array') return [];
  return '';
}

const firstSet = (...values: unknown[]) => values.find((v) => v !== undefined && v !== null);
const clone = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

/** The initial value of a field: its `value`, else its `default`, else the empty value of its type. */
export function modelOf(field: FieldSchema): unknown {
  if (field.type === 'HTML') return undefined;
  if (field.type === 'object' && field.properties && Object.keys(field.properties).length > 0) {
    const own = firstSet(field.value, field.default);
    const model: Record<string, unknown> = isPlainObject(own) ? clone(own) : {};
    for (const [key, child] of Object.entries(field.properties)) {
      if (child.type === 'HTML') continue;
      const inner = modelOf(child);
      if (model[key] === undefined) model[key] = inner;
      else if (child.type === 'object' && isPlainObject(model[key]) && isPlainObject(inner))
        model[key] = { ...inner, ...model[key] };
    }
    return model;
  }
  return clone(firstSet(field.value, field.default, emptyOf(field.type)));
}

/** The value of the form: the model of the schema with `value` (when given) laid over it. */
export function initialValue(root: RootSchema, value?: unknown): Record<string, unknown> {
  const model = modelOf(root) as Record<string, unknown>;
  return isPlainObject(value) ? deepMerge(model, clone(value)) : model;
}
