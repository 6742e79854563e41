// The actions offered on a node, the same in its context menu and in the toolbox.
import { isSchemaKind, type SchemaNode } from '@gdb/shared/schemas/schema-nodes';
import { allowedChildren, isNamedBy } from '@gdb/shared/schemas/schema-rules';

export interface NodeAction {
  key: string;
  label: string;
  disabled: boolean;
  children?: NodeAction[];
}

/** The actions on `node` (its parent `parent`; null for the root); every edit is disabled when `readOnly`. */
export function nodeActions(node: SchemaNode, parent: SchemaNode | null, readOnly: boolean, canSave: boolean): NodeAction[] {
  const isRoot = parent === null;
  const siblings = parent?.children ?? [];
  const index = siblings.indexOf(node);
  const append = allowedChildren(node);
  const isRef = node.kind === 'ref';
  return [
    { key: 'rename', label: 'Rename', disabled: readOnly || !isNamedBy(parent) },
    {
      key: 'append',
      label: 'Append',
      disabled: readOnly || append.length === 0,
      children: append.map((kind) => ({ key: `append:${kind}`, label: kind, disabled: readOnly })),
    },
    { key: 'save', label: 'Save Schema', disabled: !canSave },
    { key: 'selectRef', label: 'Select Referenced Schema', disabled: readOnly || isRoot || !isSchemaKind(node.kind) },
    { key: 'selectProperty', label: 'Select Property', disabled: readOnly || !isRef || !node.options.$ref },
    { key: 'remove', label: 'Remove', disabled: readOnly || isRoot },
    { key: 'up', label: 'Move Up', disabled: readOnly || isRoot || index <= 0 },
    { key: 'down', label: 'Move Down', disabled: readOnly || isRoot || index >= siblings.length - 1 },
  ];
}
