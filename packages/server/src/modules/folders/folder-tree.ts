import type { TreeNode } from '@gdb/shared/folders/folders.schemas';
import type { FolderedDocument } from '../versions/versions.service.ts';
import type { FolderRow } from './folders.repo.ts';
import type { DocumentAccessItem } from './folders.types.ts';
import type { TreeSource } from './tree-source.ts';

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

/** What the access hook is shown of a document in its folder (the root when it has none known). */
export function documentItem(byId: ReadonlyMap<string, FolderRow>, doc: FolderedDocument, root: FolderRow): DocumentAccessItem {
  const above = foldersAbove(byId, folderOf(byId, doc, root)).map((f) => ({ id: f.id, tags: f.tags }));
  return { kind: root.kind, type: 'leaf', id: doc.id, name: doc.name, tags: doc.tags, metadataTags: doc.metadataTags, above };
}

const folderNode = (f: FolderRow, writable: boolean): TreeNode => ({
  value: f.id,
  label: f.name,
  type: 'folder',
  children: [],
  versions: [],
  tags: f.tags,
  metadataTags: f.metadata_tags,
  write_access: writable,
});

const leafNode = (d: FolderedDocument, writable: boolean): TreeNode => ({
  value: d.id,
  label: d.name,
  type: 'leaf',
  children: [],
  versions: d.versions,
  tags: d.tags,
  metadataTags: d.metadataTags,
  write_access: writable && !d.readOnly,
});

/**
 * The explorer tree of one kind: the root with its folders and documents, folders first, each
 * by name ignoring case. A document in no known folder sits in the root; `visible` leaves out
 * what the caller may not read (a folder left out takes what it holds with it); `writable` says
 * on each node whether they may change it (a read-only document: never).
 */
export function buildTree(
  source: TreeSource,
  visible: (item: DocumentAccessItem) => boolean,
  writable: (item: DocumentAccessItem) => boolean = () => true,
): TreeNode[] {
  const { kind, root } = source;
  if (!root) return [];
  const fill = (node: TreeNode, id: string) => {
    const above = source.chains.get(id) ?? [];
    for (const f of source.folders.get(id) ?? []) {
      const item: DocumentAccessItem = { kind, type: 'folder', id: f.id, tags: f.tags, metadataTags: f.metadata_tags, above };
      if (!visible(item)) continue;
      const child = folderNode(f, writable(item));
      node.children.push(child);
      fill(child, f.id);
    }
    for (const d of source.documents.get(id) ?? []) {
      const item: DocumentAccessItem = {
        kind,
        type: 'leaf',
        id: d.id,
        name: d.name,
        tags: d.tags,
        metadataTags: d.metadataTags,
        above,
      };
      if (visible(item)) node.children.push(leafNode(d, writable({ ...item, versions: d.versions })));
    }
  };
  const rootItem: DocumentAccessItem = {
    kind,
    type: 'folder',
    id: root.id,
    tags: root.tags,
    metadataTags: root.metadata_tags,
    above: [],
  };
  const top = folderNode(root, writable(rootItem));
  fill(top, root.id);
  return [top];
}
