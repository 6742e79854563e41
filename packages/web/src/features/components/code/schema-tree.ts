/** A node of a data model as the code dialog shows it: a title and its children. */
export interface SchemaTreeNode {
  key: string;
  title: string;
  children?: SchemaTreeNode[];
}

/** Past this depth a data model is cut short: a tree to read beside code, not a validator. */
const MAX_DEPTH = 12;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeText(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (typeof schema.type === 'string') return schema.type;
  if (typeof schema.$ref === 'string') return schema.$ref;
  if (Array.isArray(schema.enum)) return 'enum';
  return 'any';
}

function childrenOf(schema: Record<string, unknown>, key: string, depth: number): SchemaTreeNode[] | undefined {
  if (depth >= MAX_DEPTH) return undefined;
  if (isObject(schema.properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    return Object.entries(schema.properties).map(([name, sub]) =>
      nodeOf(name, sub, `${key}.${name}`, depth + 1, required.includes(name)),
    );
  }
  if (isObject(schema.items)) return [nodeOf('[ ]', schema.items, `${key}[]`, depth + 1, false)];
  return undefined;
}

function nodeOf(name: string, raw: unknown, key: string, depth: number, required: boolean): SchemaTreeNode {
  const schema = isObject(raw) ? raw : {};
  const title = `${name}${required ? ' *' : ''} : ${typeText(schema)}`;
  const children = childrenOf(schema, key, depth);
  return children && children.length > 0 ? { key, title, children } : { key, title };
}

/** The tree of a port's data model, its root named after the port. */
export function schemaTree(portName: string, jsonSchema: unknown): SchemaTreeNode {
  return nodeOf(portName, jsonSchema, portName, 0, false);
}
