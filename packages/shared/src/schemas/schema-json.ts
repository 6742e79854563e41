// JSON schema ⇄ node tree. What the tree does not show as nodes stays in a node's options, so a
// schema read and written back is the same schema.
import { isTypeKind, makeNode, type SchemaNode, type TypeKind, valuesOf } from './schema-nodes.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords of the root that describe the document rather than its type. */
const ROOT_KEYS = ['$schema', '$id', 'id'];

/** Without `keys`. */
function omit(value: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) if (!keys.includes(k)) out[k] = v;
  return out;
}

/** The type a schema declares or implies. */
function typeOf(s: Json): TypeKind {
  const declared = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? s.type[0]) : s.type;
  if (typeof declared === 'string' && isTypeKind(declared)) return declared;
  if (isObject(s.properties)) return 'object';
  if (s.items !== undefined) return 'array';
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    const first = s.enum[0];
    if (typeof first === 'number') return Number.isInteger(first) ? 'integer' : 'number';
    if (typeof first === 'boolean') return 'boolean';
    if (typeof first === 'string') return 'string';
  }
  return 'object';
}

function objectChildren(s: Json): SchemaNode[] {
  const children: SchemaNode[] = [];
  if (isObject(s.properties)) {
    const props = Object.entries(s.properties).map(([k, v]) => schemaToNode(v, k));
    children.push(makeNode('properties', 'properties', {}, props));
  }
  if (Array.isArray(s.required)) children.push(makeNode('required', 'required', { values: [...s.required] }));
  if (isObject(s.dependencies)) {
    const items = Object.entries(s.dependencies).map(([k, v]) =>
      Array.isArray(v)
        ? makeNode('dependencyItem', k, { values: [...v] })
        : makeNode('dependencyItem', k, {}, [schemaToNode(v, 'schema')]),
    );
    children.push(makeNode('dependencies', 'dependencies', {}, items));
  }
  return children;
}

/** The keywords of a schema that its node's children hold, or its kind says (a single known type). */
function partsRead(s: Json): string[] {
  const read: string[] = [];
  if (typeof s.type === 'string' && isTypeKind(s.type)) read.push('type');
  if (isObject(s.properties)) read.push('properties');
  if (isObject(s.dependencies)) read.push('dependencies');
  if (Array.isArray(s.required)) read.push('required');
  if (Array.isArray(s.enum)) read.push('enum');
  if (s.items !== undefined) read.push('items');
  return read;
}

/** The node of one schema value, named `name` (a property key, a definition key, or a fixed word). */
function schemaToNode(value: unknown, name: string): SchemaNode {
  const s: Json = isObject(value) ? value : {};
  if (typeof s.$ref === 'string') return makeNode('ref', name, { ...s });
  for (const combiner of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[combiner];
    if (Array.isArray(list) && s.type === undefined) {
      return makeNode(
        combiner,
        name,
        omit(s, [combiner]),
        list.map((item, i) => schemaToNode(item, String(i))),
      );
    }
  }
  if (s.not !== undefined && s.type === undefined) {
    return makeNode('not', name, omit(s, ['not']), [schemaToNode(s.not, 'not')]);
  }
  const kind = typeOf(s);
  // The parts become nodes whatever the type, so that the node rules see a part the type cannot
  // hold; a part of the wrong shape, and a type that is no node type, stay as written.
  const structural = partsRead(s);
  const children: SchemaNode[] = [...objectChildren(s)];
  if (s.items !== undefined) {
    const items = Array.isArray(s.items)
      ? makeNode(
          'items',
          'items',
          { tuple: true },
          s.items.map((item, i) => schemaToNode(item, String(i))),
        )
      : makeNode('items', 'items', {}, [schemaToNode(s.items, 'items')]);
    children.push(items);
  }
  if (Array.isArray(s.enum)) children.push(makeNode('enum', 'enum', { values: [...s.enum] }));
  return makeNode(kind, name, omit(s, structural), children);
}

/** The tree of a data model: a jsonSchema root named after it, holding its definitions and its type. */
export function jsonToTree(jsonSchema: unknown, name: string): SchemaNode {
  const s: Json = isObject(jsonSchema) ? jsonSchema : {};
  const rootOptions: Json = {};
  for (const key of ROOT_KEYS) if (key in s) rootOptions[key] = s[key];
  const children: SchemaNode[] = [];
  if (isObject(s.definitions)) {
    const defs = Object.entries(s.definitions).map(([k, v]) => schemaToNode(v, k));
    children.push(makeNode('definitions', 'definitions', {}, defs));
  }
  const rest = omit(s, [...ROOT_KEYS, 'definitions']);
  if (Object.keys(rest).length > 0) children.push(schemaToNode(rest, 'schema'));
  return makeNode('jsonSchema', name, rootOptions, children);
}

function byName(children: readonly SchemaNode[]): Json {
  const out: Json = {};
  for (const child of children) out[child.name] = nodeToJson(child);
  return out;
}

function partsOf(node: SchemaNode): Json {
  const out: Json = {};
  for (const child of node.children) {
    switch (child.kind) {
      case 'properties':
        out.properties = byName(child.children);
        break;
      case 'required':
      case 'enum':
        out[child.kind] = valuesOf(child);
        break;
      case 'dependencies': {
        const deps: Json = {};
        for (const item of child.children) deps[item.name] = item.children[0] ? nodeToJson(item.children[0]) : valuesOf(item);
        out.dependencies = deps;
        break;
      }
      case 'items':
        out.items = child.options.tuple ? child.children.map(nodeToJson) : child.children[0] ? nodeToJson(child.children[0]) : {};
        break;
      default:
        break;
    }
  }
  return out;
}

/** The JSON schema of a node (a schema node; a part node gives its parent's keyword value). */
function nodeToJson(node: SchemaNode): unknown {
  switch (node.kind) {
    case 'ref':
      return { ...node.options };
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      return { ...node.options, [node.kind]: node.children.map(nodeToJson) };
    case 'not':
      return { ...node.options, not: node.children[0] ? nodeToJson(node.children[0]) : {} };
    case 'jsonSchema':
      return treeToJson(node);
    case 'required':
    case 'enum':
    case 'dependencyItem':
      return node.children[0] ? nodeToJson(node.children[0]) : valuesOf(node);
    case 'properties':
    case 'definitions':
    case 'dependencies':
      return byName(node.children);
    case 'items':
      return node.children[0] ? nodeToJson(node.children[0]) : {};
    default: {
      const { type, ...rest } = node.options;
      return { type: type ?? node.kind, ...rest, ...partsOf(node) };
    }
  }
}

/** The data model's JSON schema from its tree. */
export function treeToJson(root: SchemaNode): Json {
  const out: Json = { ...root.options };
  const typed = root.children.find((c) => c.kind !== 'definitions');
  if (typed) Object.assign(out, nodeToJson(typed));
  const defs = root.children.find((c) => c.kind === 'definitions');
  if (defs) out.definitions = byName(defs.children);
  return out;
}

/** The JSON text the editor shows and downloads: indented by 4 spaces. */
export const jsonText = (value: unknown): string => JSON.stringify(value, null, 4);
