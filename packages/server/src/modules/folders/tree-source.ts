import type { FolderKind } from '@gdb/shared/folders/folders.schemas';
import type { FolderedDocument } from '../versions/versions.service.ts';
import type { FolderRow } from './folders.repo.ts';
import type { DocumentAccessItem } from './folders.types.ts';

/** One collator for every comparison: `localeCompare` with options builds one per call, far too slow for large trees. */
const collator = new Intl.Collator(undefined, { sensitivity: 'base' });

/**
 * What every caller's tree of a kind is built from: the root, and under each folder its folders
 * and its documents, each list by name ignoring case (in the order read where names compare
 * equal), with the chain of folders from it up to the root. Shared between calls: never changed.
 */
export interface TreeSource {
  kind: FolderKind;
  root: FolderRow | undefined;
  folders: ReadonlyMap<string, readonly FolderRow[]>;
  documents: ReadonlyMap<string, readonly FolderedDocument[]>;
  /** Per folder: that folder and every folder above it, nearest first (a broken chain simply ends). */
  chains: ReadonlyMap<string, DocumentAccessItem['above']>;
}

/** The folder and those above it, nearest first, as the access hook is shown them. */
function chainFrom(byId: ReadonlyMap<string, FolderRow>, id: string): DocumentAccessItem['above'] {
  const chain: DocumentAccessItem['above'] = [];
  const seen = new Set<string>();
  for (let at = byId.get(id); at && !seen.has(at.id); at = at.parent_id ? byId.get(at.parent_id) : undefined) {
    seen.add(at.id);
    chain.push({ id: at.id, tags: at.tags });
  }
  return chain;
}

function groupSorted<T>(items: readonly T[], keyOf: (item: T) => string | null, nameOf: (item: T) => string) {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === null) continue;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  for (const group of groups.values()) group.sort((a, b) => collator.compare(nameOf(a), nameOf(b)));
  return groups;
}

/** Arranges a kind's folders (the root among them) and documents; a document in no known folder sits in the root. */
export function treeSource(kind: FolderKind, folders: readonly FolderRow[], docs: readonly FolderedDocument[]): TreeSource {
  const root = folders.find((f) => f.parent_id === null);
  const byId = new Map(folders.map((f) => [f.id, f]));
  const home = (d: FolderedDocument) => (d.folder && byId.has(d.folder) ? d.folder : (root?.id ?? null));
  return {
    kind,
    root,
    folders: groupSorted(
      folders,
      (f) => f.parent_id,
      (f) => f.name,
    ),
    documents: groupSorted(docs, home, (d) => d.name),
    chains: new Map(folders.map((f) => [f.id, chainFrom(byId, f.id)])),
  };
}

/** How the folders and documents of a kind are read, each with a stamp that tells whether what was read earlier is still current. */
export interface TreeReads {
  folderStamp(kind: FolderKind): Promise<string>;
  documentStamp(kind: FolderKind): Promise<string>;
  folders(kind: FolderKind): Promise<readonly FolderRow[]>;
  documents(kind: FolderKind): Promise<readonly FolderedDocument[]>;
}

interface Kept {
  stamps: readonly [string, string];
  folders: Promise<readonly FolderRow[]>;
  documents: Promise<readonly FolderedDocument[]>;
  source: Promise<TreeSource>;
}

/**
 * Each kind's tree source, kept between calls with the stamps read before its folders and its
 * documents, each read again only when its stamp has changed: any write to the kind's folders or
 * documents, by this instance or another, changes the stamp as it commits, so no call is answered
 * from a source older than the data it could have read itself. Calls that find the same new stamps
 * share one read; a failed read is not kept.
 */
export function treeSources(reads: TreeReads): (kind: FolderKind) => Promise<TreeSource> {
  const kept = new Map<FolderKind, Kept>();
  return async (kind) => {
    const stamps = await Promise.all([reads.folderStamp(kind), reads.documentStamp(kind)]);
    const known = kept.get(kind);
    const sameFolders = known?.stamps[0] === stamps[0];
    const sameDocuments = known?.stamps[1] === stamps[1];
    if (known && sameFolders && sameDocuments) return known.source;
    const folders = known && sameFolders ? known.folders : reads.folders(kind);
    const documents = known && sameDocuments ? known.documents : reads.documents(kind);
    const source = Promise.all([folders, documents]).then(([f, d]) => treeSource(kind, f, d));
    const entry: Kept = { stamps, folders, documents, source };
    kept.set(kind, entry);
    source.catch(() => {
      if (kept.get(kind) === entry) kept.delete(kind);
    });
    return source;
  };
}
