import type { TreeNode } from '@gdb/shared/folders/folders.schemas';

/** Where each node sits: its parent and whether it is a root (a top-level entry). */
export interface TreeIndex {
  byId: ReadonlyMap<string, TreeNode>;
  parentOf: ReadonlyMap<string, TreeNode | null>;
  /** Ids of every folder, for the tree to open them all. */
  folderIds: string[];
}

export function indexTree(roots: readonly TreeNode[]): TreeIndex {
  const byId = new Map<string, TreeNode>();
  const parentOf = new Map<string, TreeNode | null>();
  const folderIds: string[] = [];
  const stack: [TreeNode, TreeNode | null][] = roots.map((r) => [r, null]);
  while (stack.length > 0) {
    const [node, parent] = stack.pop() as [TreeNode, TreeNode | null];
    byId.set(node.value, node);
    parentOf.set(node.value, parent);
    if (node.type === 'folder') folderIds.push(node.value);
    for (const child of node.children) stack.push([child, node]);
  }
  return { byId, parentOf, folderIds };
}

/** The node and every folder above it, nearest first. */
export function chainOf(index: TreeIndex, node: TreeNode): TreeNode[] {
  const chain = [node];
  for (let at = index.parentOf.get(node.value); at; at = index.parentOf.get(at.value)) chain.push(at);
  return chain;
}

export function isRoot(index: TreeIndex, node: TreeNode): boolean {
  return index.parentOf.get(node.value) === null;
}

/** True when `node` is `ancestor` or sits below it. */
export function isWithin(index: TreeIndex, node: TreeNode, ancestor: TreeNode): boolean {
  return chainOf(index, node).some((n) => n.value === ancestor.value);
}

/** The leaf holding the version `id` (its newest version, or an older one). */
export function nodeOfVersion(index: TreeIndex, id: string | null | undefined): TreeNode | undefined {
  if (!id) return undefined;
  const direct = index.byId.get(id);
  if (direct) return direct;
  for (const node of index.byId.values()) if (node.versions.some((v) => v._id === id)) return node;
  return undefined;
}

/**
 * The tree as the filter shows it: the nodes whose label holds `text` (ignoring case) and the
 * folders above them; `keepLeaf` leaves out documents the page does not offer. Answers the same
 * nodes when nothing is filtered out.
 */
export function filterTree(
  roots: readonly TreeNode[],
  text: string,
  keepLeaf?: (node: TreeNode) => boolean,
): readonly TreeNode[] {
  const needle = text.trim().toLowerCase();
  if (!needle && !keepLeaf) return roots;
  const visit = (node: TreeNode): TreeNode | null => {
    if (node.type === 'leaf') {
      if (keepLeaf && !keepLeaf(node)) return null;
      return !needle || node.label.toLowerCase().includes(needle) ? node : null;
    }
    let changed = false;
    const children: TreeNode[] = [];
    for (const child of node.children) {
      const kept = visit(child);
      if (kept !== child) changed = true;
      if (kept) children.push(kept);
    }
    const matches = !needle || node.label.toLowerCase().includes(needle);
    if (children.length === 0 && !matches) return null;
    return changed ? { ...node, children } : node;
  };
  return roots.flatMap((r) => {
    const kept = visit(r);
    return kept ? [kept] : [];
  });
}
