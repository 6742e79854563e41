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
}

/** A version and everything it depends on, at any depth, by id; the root first. */
export interface DependencyGraph {
  root: Node;
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
  const root: Node = { kind, row, children: [] };
  const nodes = new Map<string, Node>([[row.id, root]]);
  let frontier = [root];
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
        const node: Node = { kind: k, row: found, children: [] };
        nodes.set(found.id, node);
        next.push(node);
      }
    }
    for (const node of frontier) {
      const refs = adapterOf(node.kind)
        .refs(node.row)
        .map((r) => r.id);
      node.children = [...new Set(refs.filter((id) => nodes.has(id)))];
    }
    frontier = next;
  }
  return { root, nodes };
}

/** For every dependency of the graph: whether a newer version of its family exists, and which (the newest). */
export async function updateEntries(repo: VersionsRepo, graph: DependencyGraph): Promise<UpdateEntry[]> {
  const deps = [...graph.nodes.values()].filter((n) => n !== graph.root);
  const newest = new Map<string, VersionedRow>();
  for (const kind of new Set(deps.map((d) => d.kind))) {
    const families = [...new Set(deps.filter((d) => d.kind === kind).map((d) => d.row.family_id))];
    for (const row of await repo.newestOf(adapterOf(kind).table, families)) newest.set(row.family_id, row);
  }
  return deps.map(({ kind, row }) => {
    const latest = newest.get(row.family_id);
    const toUpdate = latest && latest.version > row.version ? docOf(kind, latest) : null;
    return {
      doc: docOf(kind, row),
      needUpdate: toUpdate !== null,
      toUpdate,
      newVersionNumber: toUpdate?.version ?? null,
      newDocIsLocked: toUpdate?.vLocked ?? false,
    };
  });
}
