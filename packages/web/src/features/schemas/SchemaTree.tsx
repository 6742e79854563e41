import { type SchemaNode, valuesOf } from '@gdb/shared/schemas/schema-nodes';
import type { MenuProps } from 'antd';
import { memo, useMemo, useState } from 'react';
import { TreeMenu, type TreeMenuAt } from '../../ui/tree/TreeMenu.tsx';
import { useCollapsed } from '../../ui/tree/useCollapsed.ts';
import { VirtualTree } from '../../ui/tree/VirtualTree.tsx';

const keyOf = (node: SchemaNode) => node.id;
const childrenOf = (node: SchemaNode) => node.children;

/** The ids of the properties their object requires. */
function requiredIds(node: SchemaNode, out: Set<string> = new Set()): Set<string> {
  if (node.kind === 'object') {
    const list = node.children.find((c) => c.kind === 'required');
    const props = node.children.find((c) => c.kind === 'properties');
    if (list && props) {
      const names = new Set(valuesOf(list));
      for (const p of props.children) if (names.has(p.name)) out.add(p.id);
    }
  }
  for (const child of node.children) requiredIds(child, out);
  return out;
}

export interface SchemaTreeProps {
  root: SchemaNode;
  selected: string | null;
  onSelect: (id: string) => void;
  /** The context menu of a node: built when it opens. */
  menuOf: (node: SchemaNode) => MenuProps['items'];
  onMenu: (key: string, node: SchemaNode) => void;
  height: number;
}

const NodeTitle = memo(function NodeTitle({ node, required }: { node: SchemaNode; required: boolean }) {
  const detail = node.kind === 'ref' ? String(node.options.$ref ?? '') : '';
  return (
    <span className="gdb-schema-node" data-kind={node.kind}>
      <span className="gdb-schema-node-name">{node.name}</span>
      <span className="gdb-schema-node-kind">
        {node.kind}
        {required ? ' *' : ''}
        {detail ? ` → ${detail}` : ''}
      </span>
    </span>
  );
});

/**
 * The tree editor: every node with its name and type, all branches open until closed. Only the
 * rows in view are in the page, so a data model of thousands of properties opens and changes at
 * once. The selection follows the keyboard; the menu key (or Shift+F10) and a right click open the
 * node menu.
 */
export function SchemaTree({ root, selected, onSelect, menuOf, onMenu, height }: SchemaTreeProps) {
  const { collapsed, toggle } = useCollapsed();
  const roots = useMemo(() => [root], [root]);
  const required = useMemo(() => requiredIds(root), [root]);
  const [menu, setMenu] = useState<TreeMenuAt<SchemaNode> | null>(null);
  return (
    <>
      <VirtualTree
        roots={roots}
        keyOf={keyOf}
        childrenOf={childrenOf}
        label="Schema tree"
        className="gdb-schema-tree"
        height={height}
        shrink
        collapsed={collapsed}
        onToggle={(node) => toggle(node.id)}
        selectedKey={selected}
        selectionFollowsFocus
        onSelect={(node) => onSelect(node.id)}
        onMenu={(node, x, y) => setMenu({ node, x, y })}
        title={(node) => <NodeTitle node={node} required={required.has(node.id)} />}
      />
      <TreeMenu menu={menu} itemsOf={menuOf} onPick={onMenu} onClose={() => setMenu(null)} />
    </>
  );
}
