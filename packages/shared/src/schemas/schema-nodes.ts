// The node tree the schema editor works on: plain, immutable values (a change copies the path to
// the node it touches and shares every other subtree).

/** The primitive and structured types of a JSON schema. */
const TYPE_KINDS = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'] as const;
export type TypeKind = (typeof TYPE_KINDS)[number];

/** Nodes that combine or point at schemas: each stands where a schema may stand. */
const COMBINER_KINDS = ['allOf', 'anyOf', 'oneOf', 'not', 'ref'] as const;
type CombinerKind = (typeof COMBINER_KINDS)[number];

/** Everything that may stand where a schema is expected (a property, an item, a definition). */
export const SCHEMA_KINDS: readonly SchemaKind[] = [...TYPE_KINDS, ...COMBINER_KINDS];
export type SchemaKind = TypeKind | CombinerKind;

/** Nodes that hold a part of their parent schema rather than a schema. */
const PART_KINDS = ['properties', 'required', 'dependencies', 'items', 'enum', 'definitions', 'dependencyItem'] as const;
type PartKind = (typeof PART_KINDS)[number];

export type NodeKind = SchemaKind | PartKind | 'jsonSchema';

export interface SchemaNode {
  readonly id: string;
  readonly kind: NodeKind;
  /** The key of a property, definition or dependency; a fixed word for the other nodes. */
  readonly name: string;
  /** The node's own keywords (title, format, minLength…), or `values` for enum, required and dependencyItem. */
  readonly options: Readonly<Record<string, unknown>>;
  readonly children: readonly SchemaNode[];
}

let sequence = 0;

/** A new node id, unique in this page. */
function newNodeId(): string {
  sequence += 1;
  return `n${sequence.toString(36)}`;
}

export function makeNode(
  kind: NodeKind,
  name: string,
  options: Record<string, unknown> = {},
  children: readonly SchemaNode[] = [],
): SchemaNode {
  return { id: newNodeId(), kind, name, options, children };
}

export const isSchemaKind = (kind: NodeKind): kind is SchemaKind => (SCHEMA_KINDS as readonly string[]).includes(kind);
export const isTypeKind = (kind: string): kind is TypeKind => (TYPE_KINDS as readonly string[]).includes(kind);

/** Parents whose children are named by the author (the name is a key of the JSON). */
export const NAMED_PARENTS: readonly NodeKind[] = ['properties', 'definitions', 'dependencies'];

/** The list an enum, required or dependencyItem node holds. */
export function valuesOf(node: SchemaNode): unknown[] {
  const values = node.options.values;
  return Array.isArray(values) ? values : [];
}

/** The node with this id and the chain of its ancestors (root first), or null. */
export function findWithAncestors(root: SchemaNode, id: string): { node: SchemaNode; ancestors: SchemaNode[] } | null {
  const ancestors: SchemaNode[] = [];
  const walk = (node: SchemaNode): SchemaNode | null => {
    if (node.id === id) return node;
    ancestors.push(node);
    for (const child of node.children) {
      const found = walk(child);
      if (found) return found;
    }
    ancestors.pop();
    return null;
  };
  const node = walk(root);
  return node ? { node, ancestors } : null;
}

export function findNode(root: SchemaNode, id: string): SchemaNode | null {
  return findWithAncestors(root, id)?.node ?? null;
}
