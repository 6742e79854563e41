import { CaretDownOutlined, CaretRightOutlined } from '@ant-design/icons';
import { type KeyboardEvent, type ReactNode, useId, useMemo, useRef, useState } from 'react';
import { flattenRows, type TreeRow, type TreeShape, windowOf } from './tree-rows.ts';
import { type TreeDrag, useTreeDrag } from './useTreeDrag.ts';
import { useTreeKeys } from './useTreeKeys.ts';
import './tree.css';

/** Height of a row, in pixels: the list draws only the rows in view. */
const ROW_HEIGHT = 28;
/** Each level is indented by 8 px. */
const TREE_INDENT = 8;
/** Rows drawn above and below the view, so scrolling shows no gap. */
const OVERSCAN = 10;

export interface VirtualTreeProps<T> extends TreeShape<T> {
  roots: readonly T[];
  /** The tree's accessible name. */
  label: string;
  /** Height of the view, in pixels. */
  height: number;
  /** The view is no taller than its rows (otherwise always `height` high). */
  shrink?: boolean;
  className?: string;
  /** Keys the caller handles through `onKey`, announced to assistive technology. */
  keyShortcuts?: string;
  /** The keys of the nodes closed. */
  collapsed: ReadonlySet<string>;
  onToggle: (node: T) => void;
  selectedKey: string | null;
  /** Arrows select the row they reach (otherwise they move the focus ring, and a click selects). */
  selectionFollowsFocus?: boolean;
  /** A row clicked, or reached by the keyboard when the selection follows the focus. */
  onSelect: (node: T) => void;
  /** Enter or Space on a node without children. */
  onActivate?: (node: T) => void;
  onDoubleClick?: (node: T) => void;
  /** Right click, the menu key or Shift+F10: the node's menu, at a point of the page. */
  onMenu?: (node: T, x: number, y: number) => void;
  /** Keys the tree does not handle itself (F2, Delete, …), for the row the keyboard is on. */
  onKey?: (node: T, event: KeyboardEvent) => void;
  drag?: TreeDrag<T>;
  /** What a row shows after its open/close switcher. */
  title: (node: T, row: TreeRow<T>) => ReactNode;
}

/** The row an event happened in (clicks are handled once, for the whole tree). */
function rowAt<T>(target: EventTarget, rows: readonly TreeRow<T>[], rowOf: ReadonlyMap<string, number>) {
  const key = (target as Element).closest?.('[data-key]')?.getAttribute('data-key');
  const at = key ? rowOf.get(key) : undefined;
  return at === undefined ? undefined : rows[at];
}

/**
 * A virtual tree (the WAI-ARIA tree pattern): only the rows in view are in the page, so tens of
 * thousands of nodes draw and change at once. The tree keeps the focus and names the row the
 * keyboard is on (aria-activedescendant); rows open and close, are selected, and may drag and drop.
 */
export function VirtualTree<T>(props: VirtualTreeProps<T>) {
  const { roots, keyOf, childrenOf, collapsed, selectedKey, height } = props;
  const id = useId();
  const rows = useMemo(() => flattenRows(roots, { keyOf, childrenOf }, collapsed), [roots, keyOf, childrenOf, collapsed]);
  const rowOf = useMemo(() => new Map(rows.map((r, i) => [r.key, i])), [rows]);
  const [scrollTop, setScrollTop] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const rowId = (key: string) => `${id}-${key}`;
  const followsFocus = props.selectionFollowsFocus ?? false;
  const keys = useTreeKeys({ ...props, rows, rowOf, box, rowHeight: ROW_HEIGHT, setScrollTop, followsFocus, rowId });
  const drag = useTreeDrag(props.drag, ROW_HEIGHT);
  const { first, last } = windowOf(rows.length, scrollTop, height, ROW_HEIGHT, OVERSCAN);

  const rowClass = (row: TreeRow<T>) => {
    const classes = ['gdb-tree-row'];
    if (row.key === selectedKey) classes.push('gdb-tree-selected');
    if (row.key === keys.activeKey) classes.push('gdb-tree-active');
    const drop = drag.dropClass(row.key);
    if (drop) classes.push(drop);
    return classes.join(' ');
  };

  return (
    <div
      ref={box}
      role="tree"
      aria-label={props.label}
      aria-keyshortcuts={props.keyShortcuts}
      tabIndex={0}
      aria-activedescendant={keys.activeKey !== null ? rowId(keys.activeKey) : undefined}
      className={props.className ? `gdb-tree ${props.className}` : 'gdb-tree'}
      style={props.shrink ? { maxHeight: height } : { height }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={keys.keyDown}
      onClick={(e) => {
        const row = rowAt(e.target, rows, rowOf);
        if (!row) return;
        if (!followsFocus) keys.setActive(row.key);
        if (row.branch && (e.target as Element).closest('[data-switcher]')) props.onToggle(row.node);
        else props.onSelect(row.node);
      }}
      onDoubleClick={(e) => {
        const row = rowAt(e.target, rows, rowOf);
        if (row) props.onDoubleClick?.(row.node);
      }}
      onContextMenu={(e) => {
        const row = rowAt(e.target, rows, rowOf);
        if (!row || !props.onMenu) return;
        e.preventDefault();
        keys.focusRow(row);
        props.onMenu(row.node, e.clientX, e.clientY);
      }}
      onFocus={(e) => {
        if (e.target === e.currentTarget) keys.focusIn();
      }}
    >
      <div className="gdb-tree-space" style={{ height: rows.length * ROW_HEIGHT }}>
        <div className="gdb-tree-window" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
          {rows.slice(first, last).map((row) => (
            <div
              key={row.key}
              id={rowId(row.key)}
              role="treeitem"
              aria-level={row.level}
              aria-setsize={row.setsize}
              aria-posinset={row.posinset}
              aria-expanded={row.branch ? !row.collapsed : undefined}
              aria-selected={row.key === selectedKey}
              className={rowClass(row)}
              style={{ paddingInlineStart: (row.level - 1) * TREE_INDENT }}
              tabIndex={-1}
              data-key={row.key}
              {...drag.rowProps(row.node, row.key)}
            >
              <span className="gdb-tree-switcher" aria-hidden="true" data-switcher="">
                {row.branch ? row.collapsed ? <CaretRightOutlined /> : <CaretDownOutlined /> : null}
              </span>
              {props.title(row.node, row)}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
