// A whole data model checked against the node rules of the editor: what the server answers when a
// data model written by any other means than the editor breaks one.
import { ALIASES_KEYWORD } from '../uploads/column-matcher.ts';
import { jsonToTree } from './schema-json.ts';
import { isTypeKind, NAMED_PARENTS, type NodeKind, type SchemaNode, valuesOf } from './schema-nodes.ts';
import { allowedChildren, matchesType, type OptionField, optionError, optionFields, RULE_MESSAGES } from './schema-rules.ts';

/** The first rule a data model breaks: where (dotted, from `jsonSchema`) and the rule's message. */
interface RuleIssue {
  path: string;
  message: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The messages of a data model whose parts the editor cannot read as nodes. */
const SHAPE_MESSAGES = {
  notASchema: 'A schema must be a JSON object',
  notAnObject: (key: string) => `${key} must be a JSON object`,
  notAList: (key: string) => `${key} must be a list`,
  notTexts: (key: string) => `${key} must be a list of texts`,
  unknownType: (type: string) => `The type ${type} is not one of string, integer, number, boolean, object, array, null`,
} as const;

const COMBINERS = ['allOf', 'anyOf', 'oneOf'] as const;

/** The schemas a schema holds, each with the path below it. */
function innerSchemas(s: Json): [string, unknown][] {
  const inner: [string, unknown][] = [];
  for (const key of ['properties', 'definitions'] as const) {
    const map = s[key];
    if (isObject(map)) for (const [name, v] of Object.entries(map)) inner.push([`${key}.${name}`, v]);
  }
  if (isObject(s.dependencies)) {
    for (const [name, v] of Object.entries(s.dependencies)) if (!Array.isArray(v)) inner.push([`dependencies.${name}`, v]);
  }
  const listed = (key: string, list: unknown[]) => {
    for (let i = 0; i < list.length; i++) inner.push([`${key}.${i}`, list[i]]);
  };
  if (Array.isArray(s.items)) listed('items', s.items);
  else if (s.items !== undefined) inner.push(['items', s.items]);
  for (const key of COMBINERS) if (Array.isArray(s[key])) listed(key, s[key] as unknown[]);
  if (s.not !== undefined) inner.push(['not', s.not]);
  return inner;
}

/** What is wrong with the shape of one schema's own keywords, or null. */
function ownShapeError(s: Json): string | null {
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  const unknown = types.find((t) => typeof t !== 'string' || !isTypeKind(t));
  if (unknown !== undefined || (Array.isArray(s.type) && s.type.length === 0))
    return SHAPE_MESSAGES.unknownType(JSON.stringify(unknown ?? []));
  for (const key of ['properties', 'definitions', 'dependencies'])
    if (s[key] !== undefined && !isObject(s[key])) return SHAPE_MESSAGES.notAnObject(key);
  for (const key of ['required', 'enum', ...COMBINERS])
    if (s[key] !== undefined && !Array.isArray(s[key])) return SHAPE_MESSAGES.notAList(key);
  const aliases = s[ALIASES_KEYWORD];
  if (aliases !== undefined && !(Array.isArray(aliases) && aliases.every((a) => typeof a === 'string')))
    return SHAPE_MESSAGES.notTexts(ALIASES_KEYWORD);
  if (isObject(s.dependencies)) {
    const bad = Object.values(s.dependencies).some((v) => !Array.isArray(v) && !isObject(v));
    if (bad) return SHAPE_MESSAGES.notAnObject('dependencies');
  }
  return null;
}

/** The first schema below `value` (itself included) the editor cannot read as nodes. */
function shapeIssue(value: unknown, path: string): RuleIssue | null {
  const stack: [string, unknown][] = [[path, value]];
  while (stack.length > 0) {
    const [at, v] = stack.pop() as [string, unknown];
    if (!isObject(v)) return { path: at, message: SHAPE_MESSAGES.notASchema };
    if (typeof v.$ref === 'string') continue;
    const error = ownShapeError(v);
    if (error) return { path: at, message: error };
    const inner = innerSchemas(v);
    // Pushed one by one: a list of many thousand schemas would overflow a spread's arguments.
    for (let i = inner.length - 1; i >= 0; i--) {
      const [p, schema] = inner[i] as [string, unknown];
      stack.push([`${at}.${p}`, schema]);
    }
  }
  return null;
}

/** The path segment of the `index`th child of `parent` in the JSON (empty when the child is the parent's own content). */
function segment(parent: SchemaNode, child: SchemaNode, index: number): string {
  if (NAMED_PARENTS.includes(parent.kind)) return child.name;
  switch (parent.kind) {
    case 'jsonSchema':
      return child.kind === 'definitions' ? 'definitions' : '';
    case 'items':
      return parent.options.tuple ? String(index) : '';
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      return `${parent.kind}.${index}`;
    case 'not':
      return 'not';
    case 'dependencyItem':
      return '';
    default:
      return child.kind;
  }
}

const join = (path: string, part: string) => (part ? `${path}.${part}` : path);

/** The names a required list or a dependency may hold: the properties of the object concerned. */
function propertyNames(object: SchemaNode | undefined): Set<string> {
  return new Set(object?.children.find((c) => c.kind === 'properties')?.children.map((c) => c.name));
}

/** What is wrong with the values of an enum, required or dependencyItem node, or null. */
function valuesError(node: SchemaNode, ancestors: readonly SchemaNode[]): string | null {
  const values = valuesOf(node);
  const seen = new Set(values.map((v) => JSON.stringify(v)));
  if (seen.size < values.length) return RULE_MESSAGES.listedTwice;
  if (node.kind === 'enum') {
    const parent = ancestors.at(-1);
    const wrong = parent ? values.find((v) => !matchesType(parent.kind, v)) : undefined;
    return parent && wrong !== undefined ? RULE_MESSAGES.notOfType(JSON.stringify(wrong), parent.kind) : null;
  }
  const names = propertyNames(node.kind === 'required' ? ancestors.at(-1) : ancestors.at(-2));
  const unknown = values.find((v) => typeof v !== 'string' || !names.has(v));
  return unknown === undefined
    ? null
    : RULE_MESSAGES.notAProperty(typeof unknown === 'string' ? unknown : JSON.stringify(unknown));
}

const FIELDS = new Map<NodeKind, OptionField[]>();
/** The options of a kind, made once per kind rather than once per node. */
function fieldsOf(kind: NodeKind): OptionField[] {
  const known = FIELDS.get(kind);
  if (known) return known;
  const fields = optionFields(kind);
  FIELDS.set(kind, fields);
  return fields;
}

/** What is wrong with one node itself (its children's kinds and names, its options, its values), or null. */
function nodeError(node: SchemaNode, ancestors: readonly SchemaNode[]): string | null {
  // The children are appended one by one, as the editor would: each must be allowed after the ones before it.
  const appended: SchemaNode[] = [];
  const probe: SchemaNode = { ...node, children: appended };
  for (const child of node.children) {
    if (!allowedChildren(probe).includes(child.kind)) return RULE_MESSAGES.cannotTake(node.kind, child.kind);
    appended.push(child);
  }
  if (NAMED_PARENTS.includes(node.kind)) {
    const names = new Set<string>();
    for (const child of node.children) {
      if (!child.name.trim()) return RULE_MESSAGES.nameRequired;
      if (names.has(child.name)) return RULE_MESSAGES.nameUsed(child.name);
      names.add(child.name);
    }
  }
  for (const field of fieldsOf(node.kind)) {
    const error = field.key in node.options ? optionError(field, node.options[field.key]) : null;
    if (error) return error;
  }
  return node.kind === 'enum' || node.kind === 'required' || node.kind === 'dependencyItem' ? valuesError(node, ancestors) : null;
}

/** The first node of the tree that breaks a rule, depth first. */
function treeIssue(root: SchemaNode): RuleIssue | null {
  const stack: { node: SchemaNode; ancestors: SchemaNode[]; path: string }[] = [
    { node: root, ancestors: [], path: 'jsonSchema' },
  ];
  while (stack.length > 0) {
    const { node, ancestors, path } = stack.pop() as (typeof stack)[number];
    const message = nodeError(node, ancestors);
    if (message) return { path, message };
    const below = [...ancestors, node];
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i] as SchemaNode;
      stack.push({ node: child, ancestors: below, path: join(path, segment(node, child, i)) });
    }
  }
  return null;
}

/**
 * The first node rule (as the editor applies them) a data model's JSON schema breaks, or
 * null when the editor could have written it: every schema a JSON object with parts of the right
 * shape and known types, each node holding only the children its kind takes, names present and
 * unique, options within their limits, enum values of their type, required and dependency names
 * those of the object's properties, no value listed twice.
 */
export function schemaRuleIssue(jsonSchema: Record<string, unknown>): RuleIssue | null {
  return shapeIssue(jsonSchema, 'jsonSchema') ?? treeIssue(jsonToTree(jsonSchema, 'schema'));
}
