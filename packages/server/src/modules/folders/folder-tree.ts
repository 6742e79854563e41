import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import type { FolderedDocument } from '../versions/versions.service.ts';
import type { FolderRow } from './folders.repo.ts';
import type { DocumentAccessItem } from './folders.types.ts';

/** One collator for every comparison: `localeCompare` with options builds one per call, far too slow for large trees. */
const collator = new Intl.Collator(undefined, { sensitivity: 'base' });
const byLabel = (a: TreeNode, b: TreeNode) => collator.compare(a.label, b.label);

/** The folders above a folder, nearest first (a broken chain simply ends). */
function foldersAbove(byId: ReadonlyMap<string, FolderRow>, id: string | null): FolderRow[] {
  const chain: FolderRow[] = [];
  const seen = new Set<string>();
  for (let at = id ? byId.get(id) : undefined; at && !seen.has(at.id); at = at.parent_id ? byId.get(at.parent_id) : undefined) {
    seen.add(at.id);
    chain.push(at);
  }
  return chain;
}

/** What the access hook is shown of a folder: its badges and those of every folder above it. */
export function folderItem(byId: ReadonlyMap<string, FolderRow>, folder: FolderRow): DocumentAccessItem {
  const above = foldersAbove(byId, folder.parent_id).map((f) => ({ id: f.id, tags: f.tags }));
  return { kind: folder.kind, type: 'folder', id: folder.id, tags: folder.tags, metadataTags: folder.metadata_tags, above };
}

/** The folder a document sits in: its own when known, else the root. */
const folderOf = (byId: ReadonlyMap<string, FolderRow>, doc: FolderedDocument, root: FolderRow) =>
  doc.folder && byId.has(doc.folder) ? doc.folder : root.id;

/** What the access hook is shown of a document in a folder (null: the root); `chains` keeps each folder's chain once built. */
export function documentItem(
  byId: ReadonlyMap<string, FolderRow>,
  doc: FolderedDocument,
  root: FolderRow,
  chains = new Map<string, DocumentAccessItem['above']>(),
): DocumentAccessItem {
  const home = folderOf(byId, doc, root);
  let above = chains.get(home);
  if (!above) {
    above = foldersAbove(byId, home).map((f) => ({ id: f.id, tags: f.tags }));
    chains.set(home, above);
  }
  return { kind: root.kind, type: 'leaf', id: doc.id, tags: doc.tags, metadataTags: doc.metadataTags, above };
}

/**
 * The explorer tree of one kind: the root with its folders and documents, folders first, each
 * by name ignoring case. A document in no known folder sits in the root; `visible` leaves out
 * what the caller may not read (a folder left out takes what it holds with it).
 */
export function buildTree(
  folders: readonly FolderRow[],
  docs: readonly FolderedDocument[],
  visible: (item: DocumentAccessItem) => boolean,
): TreeNode[] {
  const root = folders.find((f) => f.parent_id === null);
  if (!root) return [];
  const byId = new Map(folders.map((f) => [f.id, f]));
  const nodes = new Map<string, TreeNode>();
  for (const f of folders) {
    if (f !== root && !visible(folderItem(byId, f))) continue;
    const node: TreeNode = {
      value: f.id,
      label: f.name,
      type: 'folder',
      children: [],
      versions: [],
      tags: f.tags,
      metadataTags: f.metadata_tags,
    };
    nodes.set(f.id, node);
  }
  const chains = new Map<string, DocumentAccessItem['above']>();
  const leaves: [string, TreeNode][] = docs
    .filter((d) => nodes.has(folderOf(byId, d, root)) && visible(documentItem(byId, d, root, chains)))
    .map((d) => [
      folderOf(byId, d, root),
      {
        value: d.id,
        label: d.name,
        type: 'leaf',
        children: [],
        versions: d.versions,
        tags: d.tags,
        metadataTags: d.metadataTags,
      },
    ]);
  const folderEdges: [string, TreeNode][] = folders.flatMap((f) => {
    const node = nodes.get(f.id);
    return node && f.parent_id ? [[f.parent_id, node] as [string, TreeNode]] : [];
  });
  for (const [parentId, node] of [...folderEdges, ...leaves]) nodes.get(parentId)?.children.push(node);
  for (const node of nodes.values()) {
    const sub = node.children.filter((c) => c.type === 'folder').sort(byLabel);
    node.children = [...sub, ...node.children.filter((c) => c.type === 'leaf').sort(byLabel)];
  }
  const top = nodes.get(root.id);
  return top ? [top] : [];
}
