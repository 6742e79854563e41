import { CaretDownOutlined, CaretRightOutlined } from '@ant-design/icons';
import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import { type DragEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { DropPosition } from './explorer-rules.ts';

/** Height of a row, in pixels: the list draws only the rows in view. */
const ROW_HEIGHT = 28;
/** Each level is indented by 8 px. */
const TREE_INDENT = 8;
/** Rows drawn above and below the view, so scrolling shows no gap. */
const OVERSCAN = 10;

interface Row {
  node: TreeNode;
  level: number;
  parent: TreeNode | null;
  posinset: number;
  setsize: number;
}

/** The rows shown: every node whose folders above are open, in order. */
function flattenRows(roots: readonly TreeNode[], collapsed: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const walk = (nodes: readonly TreeNode[], level: number, parent: TreeNode | null) => {
    nodes.forEach((node, i) => {
      rows.push({ node, level, parent, posinset: i + 1, setsize: nodes.length });
      if (node.type === 'folder' && node.children.length > 0 && !collapsed.has(node.value)) walk(node.children, level + 1, node);
    });
  };
  walk(roots, 1, null);
  return rows;
}

export interface VirtualTreeProps {
  roots: readonly TreeNode[];
  collapsed: ReadonlySet<string>;
  onToggle: (node: TreeNode) => void;
  selectedKey: string | null;
  height: number;
  label: string;
  title: (node: TreeNode) => ReactNode;
  icon: (node: TreeNode, open: boolean) => ReactNode;
  onOpen: (node: TreeNode) => void;
  onDoubleClick: (node: TreeNode) => void;
  onMenu: (node: TreeNode, x: number, y: number) => void;
  /** Keys the tree does not handle itself (F2, Delete, …) for the active node. */
  onKey: (node: TreeNode, event: KeyboardEvent) => void;
  canDrag: (node: TreeNode) => boolean;
  canDrop: (item: TreeNode, target: TreeNode, position: DropPosition) => boolean;
  onDrop: (item: TreeNode, target: TreeNode, position: DropPosition) => void;
}

/** Where a pointer at `y` over a row drops: the top quarter before it, the bottom quarter after it, inside a folder between. */
function positionAt(node: TreeNode, y: number, top: number): DropPosition {
  const at = (y - top) / ROW_HEIGHT;
  if (node.type === 'leaf') return at < 0.5 ? 'before' : 'after';
  if (at < 0.25) return 'before';
  if (at > 0.75) return 'after';
  return 'inside';
}

/**
 * A virtual tree: only the rows in view are in the page, so ten thousand documents draw and
 * filter at once. Keyboard: arrows move, open and close, Home and End, Enter opens; the tree
 * keeps the focus and names the active row (aria-activedescendant). Rows drag and drop.
 */
export function VirtualTree(props: VirtualTreeProps) {
  const { roots, collapsed, onToggle, selectedKey, height, label, title, icon } = props;
  const id = useId();
  const rows = useMemo(() => flattenRows(roots, collapsed), [roots, collapsed]);
  const rowOf = useMemo(() => new Map(rows.map((r, i) => [r.node.value, i])), [rows]);
  const [scrollTop, setScrollTop] = useState(0);
  const [active, setActive] = useState<string | null>(null);
  const [drop, setDrop] = useState<{ key: string; position: DropPosition } | null>(null);
  const dragged = useRef<TreeNode | null>(null);
  const box = useRef<HTMLDivElement>(null);

  const rowId = (key: string) => `${id}-${key}`;
  /** The node of the row an event happened in (clicks are handled once, for the whole tree). */
  const nodeAt = (target: EventTarget): TreeNode | undefined => {
    const key = (target as Element).closest?.('[data-key]')?.getAttribute('data-key');
    const at = key ? rowOf.get(key) : undefined;
    return at === undefined ? undefined : rows[at]?.node;
  };
  const activeIndex = active !== null ? (rowOf.get(active) ?? -1) : -1;

  /** Scrolls so the row `index` is in view. */
  const reveal = (index: number) => {
    const el = box.current;
    if (!el || index < 0) return;
    const top = index * ROW_HEIGHT;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + ROW_HEIGHT > el.scrollTop + height) el.scrollTop = top + ROW_HEIGHT - height;
    setScrollTop(el.scrollTop);
  };

  // The selected row is brought into view when it changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the selection or the rows change
  useEffect(() => {
    if (selectedKey !== null && rowOf.has(selectedKey)) reveal(rowOf.get(selectedKey) as number);
  }, [selectedKey, rowOf]);

  const moveTo = (index: number) => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    if (!row) return;
    setActive(row.node.value);
    reveal(rowOf.get(row.node.value) as number);
  };

  const keyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const current = rows[activeIndex];
    const handled = () => e.preventDefault();
    const moves: Record<string, number> = {
      ArrowDown: activeIndex + 1,
      ArrowUp: activeIndex < 0 ? 0 : activeIndex - 1,
      Home: 0,
      End: rows.length - 1,
    };
    const to = moves[e.key];
    if (to !== undefined) {
      handled();
      moveTo(to);
      return;
    }
    if (!current) return;
    const { node } = current;
    const open = node.type === 'folder' && !collapsed.has(node.value) && node.children.length > 0;
    if (e.key === 'ArrowRight') {
      handled();
      if (node.type === 'folder' && collapsed.has(node.value)) onToggle(node);
      else if (open) moveTo(activeIndex + 1);
    } else if (e.key === 'ArrowLeft') {
      handled();
      if (open) onToggle(node);
      else if (current.parent) moveTo(rowOf.get(current.parent.value) ?? activeIndex);
    } else if (e.key === 'Enter' || e.key === ' ') {
      handled();
      if (node.type === 'leaf') props.onOpen(node);
      else onToggle(node);
    } else if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
      handled();
      const rect = document.getElementById(rowId(node.value))?.getBoundingClientRect();
      props.onMenu(node, rect ? rect.left + 24 : 0, rect ? rect.bottom : 0);
    } else {
      props.onKey(node, e);
    }
  };

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

  const over = (e: DragEvent, node: TreeNode) => {
    const item = dragged.current;
    if (!item) return;
    const position = positionAt(node, e.clientY, e.currentTarget.getBoundingClientRect().top);
    if (!props.canDrop(item, node, position)) {
      if (drop) setDrop(null);
      return;
    }
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (drop?.key !== node.value || drop.position !== position) setDrop({ key: node.value, position });
  };

  return (
    <div
      ref={box}
      role="tree"
      aria-label={label}
      aria-keyshortcuts="Shift+F10 F2 Delete"
      tabIndex={0}
      aria-activedescendant={activeIndex >= 0 && active !== null ? rowId(active) : undefined}
      className="gdb-vtree"
      style={{ height }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={keyDown}
      onClick={(e) => {
        const node = nodeAt(e.target);
        if (!node) return;
        setActive(node.value);
        if (node.type === 'leaf') props.onOpen(node);
        else if ((e.target as Element).closest('[data-switcher]') && node.children.length > 0) onToggle(node);
      }}
      onDoubleClick={(e) => {
        const node = nodeAt(e.target);
        if (node) props.onDoubleClick(node);
      }}
      onContextMenu={(e) => {
        const node = nodeAt(e.target);
        if (!node) return;
        e.preventDefault();
        setActive(node.value);
        props.onMenu(node, e.clientX, e.clientY);
      }}
      onFocus={(e) => {
        if (e.target === e.currentTarget && activeIndex < 0 && rows.length > 0) {
          setActive(selectedKey !== null && rowOf.has(selectedKey) ? selectedKey : (rows[0]?.node.value ?? null));
        }
      }}
    >
      <div className="gdb-vtree-space" style={{ height: rows.length * ROW_HEIGHT }}>
        <div className="gdb-vtree-window" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
          {rows.slice(first, last).map((row) => {
            const { node } = row;
            const folder = node.type === 'folder';
            const open = folder && !collapsed.has(node.value);
            const classes = ['gdb-vtree-row'];
            if (node.value === selectedKey) classes.push('gdb-vtree-selected');
            if (node.value === active) classes.push('gdb-vtree-active');
            if (drop?.key === node.value) classes.push(`gdb-vtree-drop-${drop.position}`);
            return (
              <div
                key={node.value}
                id={rowId(node.value)}
                role="treeitem"
                aria-level={row.level}
                aria-setsize={row.setsize}
                aria-posinset={row.posinset}
                aria-expanded={folder && node.children.length > 0 ? open : undefined}
                aria-selected={node.value === selectedKey}
                className={classes.join(' ')}
                style={{ paddingInlineStart: (row.level - 1) * TREE_INDENT }}
                tabIndex={-1}
                data-key={node.value}
                draggable={props.canDrag(node)}
                onDragStart={(e) => {
                  dragged.current = node;
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', node.value);
                }}
                onDragEnd={() => {
                  dragged.current = null;
                  setDrop(null);
                }}
                onDragOver={(e) => over(e, node)}
                onDragLeave={() => {
                  if (drop?.key === node.value) setDrop(null);
                }}
                onDrop={(e) => {
                  e.preventDefault();
                  const item = dragged.current;
                  dragged.current = null;
                  setDrop(null);
                  const position = positionAt(node, e.clientY, e.currentTarget.getBoundingClientRect().top);
                  if (item && props.canDrop(item, node, position)) props.onDrop(item, node, position);
                }}
              >
                <span className="gdb-vtree-switcher" aria-hidden="true" data-switcher="">
                  {folder && node.children.length > 0 ? open ? <CaretDownOutlined /> : <CaretRightOutlined /> : null}
                </span>
                <span className="gdb-vtree-icon" aria-hidden="true">
                  {icon(node, open)}
                </span>
                {title(node)}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
