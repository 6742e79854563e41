import { CaretDownOutlined, CaretRightOutlined } from '@ant-design/icons';
import { type SchemaNode, valuesOf } from '@gdb/shared/schemas/schema-nodes';
import { Dropdown, type MenuProps } from 'antd';
import { type KeyboardEvent, memo, useEffect, useId, useMemo, useRef, useState } from 'react';

/** Height of a row, in pixels: the list draws only the rows in view. */
const ROW_HEIGHT = 28;
/** Each level is indented by 8 px. */
const TREE_INDENT = 8;
/** Rows drawn above and below the view, so scrolling shows no gap. */
const OVERSCAN = 10;

interface Row {
  node: SchemaNode;
  level: number;
  parent: SchemaNode | null;
  posinset: number;
  setsize: number;
}

/** The rows shown: every node whose ancestors are open, in order. */
function flattenRows(root: SchemaNode, collapsed: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const walk = (node: SchemaNode, level: number, parent: SchemaNode | null, posinset: number, setsize: number) => {
    rows.push({ node, level, parent, posinset, setsize });
    if (collapsed.has(node.id)) return;
    const n = node.children.length;
    for (let i = 0; i < n; i++) walk(node.children[i] as SchemaNode, level + 1, node, i + 1, n);
  };
  walk(root, 1, null, 1, 1);
  return rows;
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
 * once. Keyboard: arrows move the selection, open and close; Home and End; the menu key (or
 * Shift+F10) opens the node menu; right click opens it too.
 */
export function SchemaTree({ root, selected, onSelect, menuOf, onMenu, height }: SchemaTreeProps) {
  const id = useId();
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => flattenRows(root, collapsed), [root, collapsed]);
  const rowOf = useMemo(() => new Map(rows.map((r, i) => [r.node.id, i])), [rows]);
  const required = useMemo(() => requiredIds(root), [root]);
  const [scrollTop, setScrollTop] = useState(0);
  const [menu, setMenu] = useState<{ x: number; y: number; node: SchemaNode } | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const rowId = (key: string) => `${id}-${key}`;
  const selectedIndex = selected !== null ? (rowOf.get(selected) ?? -1) : -1;

  const toggle = (node: SchemaNode) =>
    setCollapsed((was) => {
      const next = new Set(was);
      if (next.has(node.id)) next.delete(node.id);
      else next.add(node.id);
      return next;
    });

  /** Scrolls so the row `index` is in view. */
  const reveal = (index: number) => {
    const el = box.current;
    if (!el || index < 0) return;
    const top = index * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + height) el.scrollTop = top + ROW_HEIGHT - height;
    setScrollTop(el.scrollTop);
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the selection changes
  useEffect(() => reveal(selectedIndex), [selected]);

  const nodeAt = (target: EventTarget): SchemaNode | undefined => {
    const key = (target as Element).closest?.('[data-key]')?.getAttribute('data-key');
    const at = key ? rowOf.get(key) : undefined;
    return at === undefined ? undefined : rows[at]?.node;
  };
  const moveTo = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (row) onSelect(row.node.id);
  };

  const keyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowDown: selectedIndex + 1,
      ArrowUp: selectedIndex < 0 ? 0 : selectedIndex - 1,
      Home: 0,
      End: rows.length - 1,
    };
    const to = moves[e.key];
    if (to !== undefined) {
      e.preventDefault();
      moveTo(to);
      return;
    }
    const current = rows[selectedIndex];
    if (!current) return;
    const { node } = current;
    const open = node.children.length > 0 && !collapsed.has(node.id);
    if (e.key === 'ArrowRight') {
      e.preventDefault();
      if (collapsed.has(node.id)) toggle(node);
      else if (open) moveTo(selectedIndex + 1);
    } else if (e.key === 'ArrowLeft') {
      e.preventDefault();
      if (open) toggle(node);
      else if (current.parent) onSelect(current.parent.id);
    } else if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
      e.preventDefault();
      const rect = document.getElementById(rowId(node.id))?.getBoundingClientRect();
      setMenu({ x: rect ? rect.left + 24 : 0, y: rect ? rect.bottom : 0, node });
    }
  };

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

  return (
    <>
      <div
        ref={box}
        role="tree"
        aria-label="Schema tree"
        tabIndex={0}
        aria-activedescendant={selectedIndex >= 0 && selected !== null ? rowId(selected) : undefined}
        className="gdb-schema-tree"
        style={{ maxHeight: height }}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        onKeyDown={keyDown}
        onClick={(e) => {
          const node = nodeAt(e.target);
          if (!node) return;
          if ((e.target as Element).closest('[data-switcher]') && node.children.length > 0) toggle(node);
          else onSelect(node.id);
        }}
        onContextMenu={(e) => {
          const node = nodeAt(e.target);
          if (!node) return;
          e.preventDefault();
          onSelect(node.id);
          setMenu({ x: e.clientX, y: e.clientY, node });
        }}
      >
        <div className="gdb-schema-tree-space" style={{ height: rows.length * ROW_HEIGHT }}>
          <div className="gdb-schema-tree-window" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
            {rows.slice(first, last).map((row) => {
              const { node } = row;
              const branch = node.children.length > 0;
              const open = branch && !collapsed.has(node.id);
              const isSelected = node.id === selected;
              return (
                <div
                  key={node.id}
                  id={rowId(node.id)}
                  role="treeitem"
                  aria-level={row.level}
                  aria-setsize={row.setsize}
                  aria-posinset={row.posinset}
                  aria-expanded={branch ? open : undefined}
                  aria-selected={isSelected}
                  className={isSelected ? 'gdb-schema-row gdb-schema-row-selected' : 'gdb-schema-row'}
                  style={{ paddingInlineStart: (row.level - 1) * TREE_INDENT }}
                  tabIndex={-1}
                  data-key={node.id}
                >
                  <span className="gdb-schema-switcher" aria-hidden="true" data-switcher="">
                    {branch ? open ? <CaretDownOutlined /> : <CaretRightOutlined /> : null}
                  </span>
                  <NodeTitle node={node} required={required.has(node.id)} />
                </div>
              );
            })}
          </div>
        </div>
      </div>
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
    </>
  );
}
