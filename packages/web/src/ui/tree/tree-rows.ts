// The rows a virtual tree draws: the nodes whose ancestors are open, in order, and where a drop lands.

/** How a tree reads its nodes: pass functions that keep their identity between renders. */
export interface TreeShape<T> {
  /** The node's key, unique in the tree. */
  keyOf: (node: T) => string;
  /** The node's children, drawn below it while it is open. */
  childrenOf: (node: T) => readonly T[];
}

export interface TreeRow<T> {
  node: T;
  key: string;
  /** 1 for a root. */
  level: number;
  parentKey: string | null;
  posinset: number;
  setsize: number;
  /** The node has children. */
  branch: boolean;
  /** The user has closed the node. */
  collapsed: boolean;
}

/** Every node whose ancestors are all open (not in `collapsed`), in order. */
export function flattenRows<T>(roots: readonly T[], shape: TreeShape<T>, collapsed: ReadonlySet<string>): TreeRow<T>[] {
  const rows: TreeRow<T>[] = [];
  const walk = (nodes: readonly T[], level: number, parentKey: string | null) => {
    const setsize = nodes.length;
    for (let i = 0; i < setsize; i++) {
      const node = nodes[i] as T;
      const key = shape.keyOf(node);
      const children = shape.childrenOf(node);
      const closed = collapsed.has(key);
      rows.push({ node, key, level, parentKey, posinset: i + 1, setsize, branch: children.length > 0, collapsed: closed });
      if (children.length > 0 && !closed) walk(children, level + 1, key);
    }
  };
  walk(roots, 1, null);
  return rows;
}

/** Where a dragged node lands on a row: before it, after it, or inside it. */
export type DropPosition = 'before' | 'inside' | 'after';

/**
 * Where a pointer `offset` pixels below the top of a row of `height` drops: for a node that holds
 * others, the top quarter before it, the bottom quarter after it, inside between; otherwise the
 * top half before it and the bottom half after it.
 */
export function dropPosition(holds: boolean, offset: number, height: number): DropPosition {
  const at = offset / height;
  if (!holds) return at < 0.5 ? 'before' : 'after';
  if (at < 0.25) return 'before';
  if (at > 0.75) return 'after';
  return 'inside';
}

/** The first and the last (excluded) rows to draw for a view `height` high scrolled to `scrollTop`, with `overscan` rows either side. */
export function windowOf(count: number, scrollTop: number, height: number, rowHeight: number, overscan: number) {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return { first, last };
}
