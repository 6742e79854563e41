import { Dropdown, type MenuProps, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { type KeyboardEvent, memo, useMemo, useRef, useState } from 'react';
import { type SchemaNode, valuesOf } from './model/schema-nodes.ts';

/** One row of the tree widget; made once per node value, so untouched subtrees keep theirs. */
interface TreeItem extends DataNode {
  key: string;
  node: SchemaNode;
  children: TreeItem[];
}

const items = new WeakMap<SchemaNode, TreeItem>();

function itemOf(node: SchemaNode): TreeItem {
  let item = items.get(node);
  if (!item) {
    item = { key: node.id, node, children: node.children.map(itemOf), isLeaf: node.children.length === 0 };
    items.set(node, item);
  }
  return item;
}

/** The ids of every node that has children. */
function branchIds(node: SchemaNode, out: string[] = []): string[] {
  if (node.children.length > 0) {
    out.push(node.id);
    for (const child of node.children) branchIds(child, out);
  }
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
      <Typography.Text type="secondary" className="gdb-schema-node-kind">
        {node.kind}
        {required ? ' *' : ''}
        {detail ? ` → ${detail}` : ''}
      </Typography.Text>
    </span>
  );
});

/**
 * The tree editor: every node with its name and type (virtual list, so a large data model opens
 * fast), all branches open until closed, a context menu on right click or the menu key
 * (Shift+F10 too) on the selected node.
 */
export function SchemaTree({ root, selected, onSelect, menuOf, onMenu, height }: SchemaTreeProps) {
  const data = useMemo(() => [itemOf(root)], [root]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const required = useMemo(() => requiredIds(root), [root]);
  const expanded = useMemo(() => branchIds(root).filter((id) => !collapsed.has(id)), [root, collapsed]);
  const [menu, setMenu] = useState<{ x: number; y: number; node: SchemaNode } | null>(null);
  const box = useRef<HTMLDivElement>(null);

  const onExpand = (keys: React.Key[]) => {
    const open = new Set(keys.map(String));
    setCollapsed(new Set(branchIds(root).filter((id) => !open.has(id))));
  };
  const openMenuAtSelected = (e: KeyboardEvent) => {
    if (!(e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) || !selected) return;
    e.preventDefault();
    const found = findItem(data[0], selected);
    const row = box.current?.querySelector('.ant-tree-treenode-selected')?.getBoundingClientRect();
    if (found) setMenu({ x: row ? row.left + 24 : 0, y: row ? row.bottom : 0, node: found.node });
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the menu key opens the node menu of the tree inside
    <div className="gdb-schema-tree" ref={box} onKeyDown={openMenuAtSelected}>
      <Tree<TreeItem>
        aria-label="Schema tree"
        treeData={data}
        virtual
        height={height}
        blockNode
        showLine
        expandedKeys={expanded}
        onExpand={onExpand}
        selectedKeys={selected ? [selected] : []}
        onSelect={(_keys, info) => onSelect(String(info.node.key))}
        onRightClick={({ event, node }) => {
          event.preventDefault();
          onSelect(node.node.id);
          setMenu({ x: event.clientX, y: event.clientY, node: node.node });
        }}
        titleRender={(item) => <NodeTitle node={item.node} required={required.has(item.node.id)} />}
      />
      {menu && (
        <Dropdown
          open
          menu={{
            items: menuOf(menu.node),
            onClick: ({ key }) => {
              setMenu(null);
              onMenu(key, menu.node);
            },
          }}
          onOpenChange={(open) => {
            if (!open) setMenu(null);
          }}
          trigger={['contextMenu']}
        >
          <div className="gdb-schema-menu-anchor" style={{ left: menu.x, top: menu.y }} />
        </Dropdown>
      )}
    </div>
  );
}

function findItem(item: TreeItem | undefined, id: string): TreeItem | null {
  if (!item) return null;
  if (item.key === id) return item;
  for (const child of item.children) {
    const found = findItem(child, id);
    if (found) return found;
  }
  return null;
}

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
