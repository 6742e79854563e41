// Edits of the node tree. Each answers a new root that shares every subtree it did not touch, or an
// error saying why the edit is refused (the tree is then unchanged).

import {
  findWithAncestors,
  isTypeKind,
  makeNode,
  NAMED_PARENTS,
  type NodeKind,
  type SchemaNode,
  valuesOf,
} from '@gdb/shared/schemas/schema-nodes';
import { allowedChildren, canAppend, isNamedBy, optionFields, RULE_MESSAGES } from '@gdb/shared/schemas/schema-rules';

export type EditResult = { ok: true; root: SchemaNode; selected: string | null } | { ok: false; error: string };

const refuse = (error: string): EditResult => ({ ok: false, error });

/** The root with `target` (found by the chain `ancestors`) replaced by `next`: only the chain is copied. */
function replaceAlong(ancestors: readonly SchemaNode[], target: SchemaNode, next: SchemaNode | null): SchemaNode | null {
  let current = next;
  let old = target;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const parent = ancestors[i] as SchemaNode;
    const children =
      current === null ? parent.children.filter((c) => c !== old) : parent.children.map((c) => (c === old ? current : c));
    current = { ...parent, children: children as SchemaNode[] };
    old = parent;
  }
  return current;
}

function locate(root: SchemaNode, id: string) {
  const found = findWithAncestors(root, id);
  if (!found) return null;
  return { ...found, parent: found.ancestors.at(-1) ?? null };
}

/** A name not yet used among `siblings`: `base`, else `base1`, `base2`… */
function freeName(siblings: readonly SchemaNode[], base: string): string {
  const taken = new Set(siblings.map((s) => s.name));
  if (!taken.has(base)) return base;
  for (let i = 1; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

/** The name a new child of `parent` gets. */
function childName(parent: SchemaNode, kind: NodeKind): string {
  if (parent.kind === 'properties') return freeName(parent.children, 'newProperty');
  if (parent.kind === 'definitions') return freeName(parent.children, 'newDefinition');
  if (parent.kind === 'dependencies') return freeName(parent.children, 'newDependency');
  if (parent.kind === 'items' && parent.options.tuple) return String(parent.children.length);
  if (parent.kind === 'allOf' || parent.kind === 'anyOf' || parent.kind === 'oneOf') return String(parent.children.length);
  if (parent.kind === 'jsonSchema' && kind !== 'definitions') return 'schema';
  if (parent.kind === 'items') return 'items';
  return kind;
}

/** The starting content of a new node of `kind`. */
function fresh(kind: NodeKind, name: string): SchemaNode {
  if (kind === 'required' || kind === 'enum' || kind === 'dependencyItem') return makeNode(kind, name, { values: [] });
  if (kind === 'ref') return makeNode(kind, name, { $ref: '' });
  if (kind === 'array') return makeNode(kind, name, {}, [makeNode('items', 'items', {}, [makeNode('string', 'items')])]);
  if (kind === 'object') return makeNode(kind, name, {}, [makeNode('properties', 'properties')]);
  return makeNode(kind, name);
}

/** Appends a new node of `kind` to the node `parentId`, if the node rules allow it; selects it. */
export function appendNode(root: SchemaNode, parentId: string, kind: NodeKind, name?: string): EditResult {
  const at = locate(root, parentId);
  if (!at) return refuse('This node no longer exists');
  if (!canAppend(at.node, kind)) return refuse(RULE_MESSAGES.cannotTake(at.node.kind, kind));
  const chosen = name?.trim() || childName(at.node, kind);
  if (NAMED_PARENTS.includes(at.node.kind) && at.node.children.some((c) => c.name === chosen))
    return refuse(RULE_MESSAGES.nameUsed(chosen));
  const child = fresh(kind, chosen);
  const next = { ...at.node, children: [...at.node.children, child] };
  return { ok: true, root: replaceAlong(at.ancestors, at.node, next) as SchemaNode, selected: child.id };
}

/** The object holding a properties node (its parent), with `fn` applied to its required and dependency names. */
function renameInObject(object: SchemaNode, change: (names: string[]) => string[]): SchemaNode {
  let changed = false;
  const children = object.children.map((c) => {
    if (c.kind === 'required') {
      changed = true;
      return { ...c, options: { ...c.options, values: change(valuesOf(c).map(String)) } };
    }
    if (c.kind === 'dependencies') {
      changed = true;
      const items = c.children
        .filter((item) => change([item.name]).length > 0)
        .map((item) => {
          const name = change([item.name])[0] ?? item.name;
          const values = item.options.values === undefined ? undefined : change(valuesOf(item).map(String));
          return { ...item, name, options: values === undefined ? item.options : { ...item.options, values } };
        });
      return { ...c, children: items };
    }
    return c;
  });
  return changed ? { ...object, children } : object;
}

/** Renames a node (the root, or a property, definition or dependency: unique among its siblings); required lists follow. */
export function renameNode(root: SchemaNode, id: string, name: string): EditResult {
  const at = locate(root, id);
  if (!at) return refuse('This node no longer exists');
  const clean = name.trim();
  if (!clean) return refuse(RULE_MESSAGES.nameRequired);
  if (!isNamedBy(at.parent)) return refuse(`A ${at.node.kind} node keeps its name`);
  if (clean === at.node.name) return { ok: true, root, selected: id };
  if (at.parent?.children.some((c) => c !== at.node && c.name === clean)) return refuse(RULE_MESSAGES.nameUsed(clean));
  const renamed = { ...at.node, name: clean };
  const object = at.ancestors.at(-2);
  if (at.parent?.kind === 'properties' && object?.kind === 'object') {
    const old = at.node.name;
    const withProps = {
      ...object,
      children: object.children.map((c) => (c === at.parent ? replaceChild(c, at.node, renamed) : c)),
    };
    const next = renameInObject(withProps, (names) => names.map((n) => (n === old ? clean : n)));
    return { ok: true, root: replaceAlong(at.ancestors.slice(0, -2), object, next) as SchemaNode, selected: id };
  }
  return { ok: true, root: replaceAlong(at.ancestors, at.node, renamed) as SchemaNode, selected: id };
}

function replaceChild(parent: SchemaNode, old: SchemaNode, next: SchemaNode): SchemaNode {
  return { ...parent, children: parent.children.map((c) => (c === old ? next : c)) };
}

/** Removes a node (never the root): a property leaves the required list; without properties, required and dependencies go too. */
export function removeNode(root: SchemaNode, id: string): EditResult {
  const at = locate(root, id);
  if (!at?.parent) return refuse('The root cannot be removed');
  const parent = at.parent;
  const index = parent.children.indexOf(at.node);
  const after = parent.children[index + 1] ?? parent.children[index - 1];
  const selected = after?.id ?? parent.id;
  const object = at.ancestors.at(-2);
  if (parent.kind === 'properties' && object?.kind === 'object') {
    const gone = at.node.name;
    const props = { ...parent, children: parent.children.filter((c) => c !== at.node) };
    const next = renameInObject(replaceChild(object, parent, props), (names) => names.filter((n) => n !== gone));
    return { ok: true, root: replaceAlong(at.ancestors.slice(0, -2), object, next) as SchemaNode, selected };
  }
  if (at.node.kind === 'properties' && parent.kind === 'object') {
    const next = {
      ...parent,
      children: parent.children.filter((c) => !['properties', 'required', 'dependencies'].includes(c.kind)),
    };
    return { ok: true, root: replaceAlong(at.ancestors.slice(0, -1), parent, next) as SchemaNode, selected: parent.id };
  }
  return { ok: true, root: replaceAlong(at.ancestors, at.node, null) as SchemaNode, selected };
}

/** Moves a node one place up (-1) or down (+1) among its siblings (never the root). */
export function moveNode(root: SchemaNode, id: string, delta: -1 | 1): EditResult {
  const at = locate(root, id);
  if (!at?.parent) return refuse('The root cannot be moved');
  const siblings = [...at.parent.children];
  const from = siblings.indexOf(at.node);
  const to = from + delta;
  if (to < 0 || to >= siblings.length) return refuse(delta < 0 ? 'This node is already first' : 'This node is already last');
  siblings.splice(from, 1);
  siblings.splice(to, 0, at.node);
  const next = { ...at.parent, children: siblings };
  return { ok: true, root: replaceAlong(at.ancestors.slice(0, -1), at.parent, next) as SchemaNode, selected: id };
}

/** Sets one option of a node (undefined removes it). */
export function setOption(root: SchemaNode, id: string, key: string, value: unknown): EditResult {
  const at = locate(root, id);
  if (!at) return refuse('This node no longer exists');
  const options = { ...at.node.options };
  if (value === undefined) delete options[key];
  else options[key] = value;
  return { ok: true, root: replaceAlong(at.ancestors, at.node, { ...at.node, options }) as SchemaNode, selected: id };
}

/** Replaces the list of an enum, required or dependencyItem node. */
export const setValues = (root: SchemaNode, id: string, values: unknown[]) => setOption(root, id, 'values', values);

/**
 * Changes the type of a schema node: title, description and the options the new type has stay,
 * children the new type cannot hold go.
 */
export function changeKind(root: SchemaNode, id: string, kind: NodeKind): EditResult {
  const at = locate(root, id);
  if (!at) return refuse('This node no longer exists');
  if (!isTypeKind(at.node.kind) && !['allOf', 'anyOf', 'oneOf', 'not', 'ref'].includes(at.node.kind))
    return refuse(`A ${at.node.kind} node has no type to change`);
  if (kind === at.node.kind) return { ok: true, root, selected: id };
  const base = fresh(kind, at.node.name);
  const keep = new Set(optionFields(kind).map((f) => f.key));
  const options: Record<string, unknown> = { ...base.options };
  for (const [k, v] of Object.entries(at.node.options)) if (keep.has(k)) options[k] = v;
  let children: SchemaNode[] = [];
  let probe: SchemaNode = { ...base, children: [] };
  for (const child of at.node.children) {
    if (allowedChildren(probe).includes(child.kind)) {
      children = [...children, child];
      probe = { ...probe, children };
    }
  }
  if (children.length === 0) children = [...base.children];
  const next: SchemaNode = { id: at.node.id, kind, name: at.node.name, options, children };
  return { ok: true, root: replaceAlong(at.ancestors, at.node, next) as SchemaNode, selected: id };
}

/** Replaces a node with another subtree (keeping its id and name): what an imported or referenced part does. */
export function replaceNode(root: SchemaNode, id: string, next: SchemaNode): EditResult {
  const at = locate(root, id);
  if (!at) return refuse('This node no longer exists');
  const kept = { ...next, id: at.node.id, name: at.node.name };
  return { ok: true, root: replaceAlong(at.ancestors, at.node, kept) as SchemaNode, selected: id };
}

/** Whether the property `id` is in the required list of its object. */
export function isRequired(root: SchemaNode, id: string): boolean {
  const at = locate(root, id);
  const object = at?.ancestors.at(-2);
  if (!at) return false;
  if (at.parent?.kind !== 'properties' || object?.kind !== 'object') return false;
  const list = object.children.find((c) => c.kind === 'required');
  return list ? valuesOf(list).includes(at.node.name) : false;
}

/** Puts the property `id` in the required list of its object or takes it out (the list is made, or dropped once empty). */
export function setRequired(root: SchemaNode, id: string, required: boolean): EditResult {
  const at = locate(root, id);
  const object = at?.ancestors.at(-2);
  if (!at) return refuse('This node no longer exists');
  if (at.parent?.kind !== 'properties' || object?.kind !== 'object') return refuse('Only a property can be required');
  const name = at.node.name;
  const list = object.children.find((c) => c.kind === 'required');
  const values = (list ? valuesOf(list) : []).filter((v) => v !== name);
  if (required) values.push(name);
  let children: SchemaNode[];
  if (!list) children = [...object.children, makeNode('required', 'required', { values })];
  else if (values.length === 0) children = object.children.filter((c) => c !== list);
  else children = object.children.map((c) => (c === list ? { ...c, options: { ...c.options, values } } : c));
  const next = { ...object, children };
  return { ok: true, root: replaceAlong(at.ancestors.slice(0, -2), object, next) as SchemaNode, selected: id };
}
