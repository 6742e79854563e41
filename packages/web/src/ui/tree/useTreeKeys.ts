import { type KeyboardEvent, type RefObject, useEffect, useState } from 'react';
import type { TreeRow } from './tree-rows.ts';

export interface TreeKeysInput<T> {
  rows: readonly TreeRow<T>[];
  rowOf: ReadonlyMap<string, number>;
  box: RefObject<HTMLDivElement | null>;
  height: number;
  rowHeight: number;
  setScrollTop: (top: number) => void;
  selectedKey: string | null;
  followsFocus: boolean;
  onSelect: (node: T) => void;
  onToggle: (node: T) => void;
  onActivate?: (node: T) => void;
  onMenu?: (node: T, x: number, y: number) => void;
  onKey?: (node: T, event: KeyboardEvent) => void;
  rowId: (key: string) => string;
}

/** Keys that move to another row, and where to. */
function moveOf(key: string, at: number, count: number): number | undefined {
  if (key === 'ArrowDown') return at + 1;
  if (key === 'ArrowUp') return at < 0 ? 0 : at - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return undefined;
}

/**
 * The row the keyboard is on and the keys of the WAI-ARIA tree: Up and Down, Home and End move;
 * Right opens a closed node or moves to its first child; Left closes an open node or moves to its
 * parent; Enter and Space open or close a node with children and activate the others; the menu
 * key or Shift+F10 opens the node's menu. When the selection follows the focus, the row reached
 * is selected; otherwise only the focus ring moves.
 */
export function useTreeKeys<T>(input: TreeKeysInput<T>) {
  const { rows, rowOf, box, height, rowHeight, selectedKey, followsFocus } = input;
  const [active, setActive] = useState<string | null>(null);
  const activeKey = followsFocus ? selectedKey : active;
  const activeIndex = activeKey !== null ? (rowOf.get(activeKey) ?? -1) : -1;
  const selectedIndex = selectedKey !== null ? (rowOf.get(selectedKey) ?? -1) : -1;

  /** Scrolls so the row `index` is in view. */
  const reveal = (index: number) => {
    const el = box.current;
    if (!el || index < 0) return;
    const top = index * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + height) el.scrollTop = top + rowHeight - height;
    input.setScrollTop(el.scrollTop);
  };
  // The selected row is brought into view when it changes or moves.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the selection or its place changes
  useEffect(() => reveal(selectedIndex), [selectedKey, selectedIndex]);

  /** Puts the keyboard on `row`, selecting it when the selection follows the focus. */
  const focusRow = (row: TreeRow<T>) => {
    if (followsFocus) input.onSelect(row.node);
    else setActive(row.key);
  };
  const moveTo = (index: number) => {
    const at = Math.max(0, Math.min(rows.length - 1, index));
    const row = rows[at];
    if (!row) return;
    focusRow(row);
    reveal(at);
  };

  const openMenu = (row: TreeRow<T>) => {
    const rect = document.getElementById(input.rowId(row.key))?.getBoundingClientRect();
    input.onMenu?.(row.node, rect ? rect.left + 24 : 0, rect ? rect.bottom : 0);
  };

  /** The keys on the current row; false when the key is not the tree's. */
  const onRow = (row: TreeRow<T>, e: KeyboardEvent): boolean => {
    const open = row.branch && !row.collapsed;
    if (e.key === 'ArrowRight') {
      if (row.branch && row.collapsed) input.onToggle(row.node);
      else if (open) moveTo(activeIndex + 1);
    } else if (e.key === 'ArrowLeft') {
      if (open) input.onToggle(row.node);
      else if (row.parentKey !== null) moveTo(rowOf.get(row.parentKey) ?? activeIndex);
    } else if (e.key === 'Enter' || e.key === ' ') {
      if (row.branch) input.onToggle(row.node);
      else input.onActivate?.(row.node);
    } else if (input.onMenu && (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10'))) {
      openMenu(row);
    } else {
      return false;
    }
    return true;
  };

  const keyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = moveOf(e.key, activeIndex, rows.length);
    if (to !== undefined) {
      e.preventDefault();
      moveTo(to);
      return;
    }
    const row = rows[activeIndex];
    if (!row) return;
    if (onRow(row, e)) e.preventDefault();
    else input.onKey?.(row.node, e);
  };

  /** On focus, the keyboard starts on the selected row, or on the first. */
  const focusIn = () => {
    if (followsFocus || activeIndex >= 0 || rows.length === 0) return;
    setActive(selectedIndex >= 0 ? selectedKey : (rows[0]?.key ?? null));
  };

  return { activeKey: activeIndex >= 0 ? activeKey : null, focusRow, keyDown, focusIn, setActive };
}
