import type { UpdateAnswer, UpdateData, UpdateEntry, VersionKind } from '@gdb/shared/versions/versions.schemas';
import type { DependencyGraph, Node } from './version-graph.ts';
import { adapterOf } from './version-graph.ts';
import type { VersionedRow } from './versions.repo.ts';

/** The id lists of an update, by the kind of dependency they name. */
const LISTS: Record<VersionKind, keyof UpdateData> = {
  schema: 'schemasToUpdate',
  component: 'componentsToUpdate',
  sdk: 'sdkToUpdate',
  pipeline: 'pipelinesToUpdate',
};

/**
 * The dependencies the caller chose, each moving to the newer version the report names: a list
 * may name the version in use or the newer one.
 */
export function chosenMoves(entries: readonly UpdateEntry[], data: UpdateData): Map<string, string> {
  const moves = new Map<string, string>();
  for (const e of entries) {
    const listed = data[LISTS[e.doc.kind]];
    if (!e.toUpdate || !Array.isArray(listed)) continue;
    if (listed.includes(e.doc._id) || listed.includes(e.toUpdate._id)) moves.set(e.doc._id, e.toUpdate._id);
  }
  return moves;
}

/** What an update writes with: the transaction's copy and patch, and the write check of each copied document. */
export interface UpdateWriter {
  check(node: Node): Promise<void>;
  copy(node: Node): Promise<VersionedRow>;
  patch(node: Node, id: string, columns: Record<string, unknown>): Promise<unknown>;
}

/**
 * Walks the graph from its leaves up: every version pointing (directly or through others) at a
 * moved dependency gets a new version pointing at the new ones, up to the root. A chosen
 * dependency is replaced, not walked into; a pinned one is never walked into. Answers the new
 * versions, the root's last, and every move made (the chosen ones and the new versions, old id → new id).
 */
export async function applyUpdate(graph: DependencyGraph, chosen: ReadonlyMap<string, string>, writer: UpdateWriter) {
  const moves = new Map(chosen);
  const done = new Set<string>();
  const success: UpdateAnswer['success'] = [];
  const visit = async (node: Node): Promise<void> => {
    if (done.has(node.row.id) || chosen.has(node.row.id)) return;
    done.add(node.row.id);
    for (const id of node.children) {
      const child = graph.nodes.get(id);
      if (child && !node.pinned.has(id)) await visit(child);
    }
    if (!node.children.some((id) => moves.has(id))) return;
    const columns = adapterOf(node.kind).rewrite(node.row, moves);
    if (!columns) return;
    await writer.check(node);
    const copy = await writer.copy(node);
    await writer.patch(node, copy.id, columns);
    moves.set(node.row.id, copy.id);
    success.push({
      name: adapterOf(node.kind).nameOf(node.row),
      old_version: node.row.version,
      new_version: copy.version,
      newId: copy.id,
    });
  };
  await visit(graph.root);
  return { success, moves };
}
