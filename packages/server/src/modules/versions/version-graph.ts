import { isId } from '@gdb/shared/users/users.schemas';
import type { UpdateEntry, VersionDoc, VersionKind } from '@gdb/shared/versions/versions.schemas';
import { KINDS, type KindAdapter } from './version-kinds.ts';
import type { VersionedRow, VersionsRepo } from './versions.repo.ts';

/** A document version in a dependency graph. */
export interface Node {
  kind: VersionKind;
  row: VersionedRow;
  /** Ids of the versions it depends on directly (those found). */
  children: string[];
  /** Those of its children an update replaces but never walks into (a country's master). */
  pinned: Set<string>;
}

/** A version and everything it depends on, at any depth, by id; the root first. */
export interface DependencyGraph {
  root: Node;
  nodes: Map<string, Node>;
}

/** Several versions of one kind and everything they depend on, read together; the roots in the order given. */
export interface DependencyForest {
  roots: Node[];
  nodes: Map<string, Node>;
}

export const adapterOf = (kind: VersionKind): KindAdapter => KINDS[kind];

/** The version as answers name it. */
export function docOf(kind: VersionKind, row: VersionedRow): VersionDoc {
  return {
    _id: row.id,
    kind,
    familyId: row.family_id,
    name: adapterOf(kind).nameOf(row),
    version: row.version,
    vLocked: row.v_locked,
  };
}

/** Reads a version's dependencies level by level, one query per kind and level; a reference to a missing version is left out. */
export async function dependencyGraph(repo: VersionsRepo, kind: VersionKind, row: VersionedRow): Promise<DependencyGraph> {
  const { roots, nodes } = await dependencyForest(repo, kind, [row]);
  return { root: roots[0] as Node, nodes };
}

/** The dependencies of several versions at once, level by level, one query per kind and level. */
export async function dependencyForest(
  repo: VersionsRepo,
  kind: VersionKind,
  rows: readonly VersionedRow[],
): Promise<DependencyForest> {
  const nodes = new Map<string, Node>();
  const roots = rows.map((row) => {
    const node = nodes.get(row.id) ?? { kind, row, children: [], pinned: new Set<string>() };
    nodes.set(row.id, node);
    return node;
  });
  let frontier = [...new Set(roots)];
  while (frontier.length > 0) {
    const wanted = new Map<VersionKind, Set<string>>();
    for (const node of frontier) {
      for (const ref of adapterOf(node.kind).refs(node.row)) {
        if (!isId(ref.id)) continue;
        if (!nodes.has(ref.id)) wanted.set(ref.kind, (wanted.get(ref.kind) ?? new Set()).add(ref.id));
      }
    }
    const next: Node[] = [];
    for (const [k, ids] of wanted) {
      for (const found of await repo.byIds(adapterOf(k).table, [...ids])) {
        const node: Node = { kind: k, row: found, children: [], pinned: new Set() };
        nodes.set(found.id, node);
        next.push(node);
      }
    }
    for (const node of frontier) {
      const refs = adapterOf(node.kind).refs(node.row);
      node.children = [...new Set(refs.map((r) => r.id).filter((id) => nodes.has(id)))];
      node.pinned = new Set(refs.filter((r) => r.pinned && nodes.has(r.id)).map((r) => r.id));
    }
    frontier = next;
  }
  return { roots, nodes };
}

/** What a version depends on, at any depth, deepest first (each after what it depends on), the version itself last. */
export function postOrder(nodes: ReadonlyMap<string, Node>, roots: readonly Node[]): Node[] {
  const seen = new Set<string>();
  const out: Node[] = [];
  // An explicit stack: a long chain of data models must not exhaust the call stack.
  for (const root of roots) {
    const stack: { node: Node; next: number }[] = [];
    if (!seen.has(root.row.id)) {
      seen.add(root.row.id);
      stack.push({ node: root, next: 0 });
    }
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { node: Node; next: number };
      const childId = top.node.children[top.next];
      top.next += 1;
      if (childId === undefined) {
        out.push(top.node);
        stack.pop();
        continue;
      }
      const child = nodes.get(childId);
      if (child && !seen.has(childId)) {
        seen.add(childId);
        stack.push({ node: child, next: 0 });
      }
    }
  }
  return out;
}

/** The newest version (by number) of the family of each of these nodes, by family id. */
export async function newestOfNodes(repo: VersionsRepo, deps: readonly Node[]): Promise<Map<string, VersionedRow>> {
  const newest = new Map<string, VersionedRow>();
  for (const kind of new Set(deps.map((d) => d.kind))) {
    const families = [...new Set(deps.filter((d) => d.kind === kind).map((d) => d.row.family_id))];
    for (const row of await repo.newestOf(adapterOf(kind).table, families)) newest.set(row.family_id, row);
  }
  return newest;
}

/** The update report's entry of a dependency: whether its family has a newer version, and which (the newest). */
export function entryOf({ kind, row }: Node, newest: ReadonlyMap<string, VersionedRow>): UpdateEntry {
  const latest = newest.get(row.family_id);
  const toUpdate = latest && latest.version > row.version ? docOf(kind, latest) : null;
  return {
    doc: docOf(kind, row),
    needUpdate: toUpdate !== null,
    toUpdate,
    newVersionNumber: toUpdate?.version ?? null,
    newDocIsLocked: toUpdate?.vLocked ?? false,
  };
}

/** For every dependency of the graph: whether a newer version of its family exists, and which (the newest). */
export async function updateEntries(repo: VersionsRepo, graph: DependencyGraph): Promise<UpdateEntry[]> {
  const deps = [...graph.nodes.values()].filter((n) => n !== graph.root);
  const newest = await newestOfNodes(repo, deps);
  return deps.map((d) => entryOf(d, newest));
}
