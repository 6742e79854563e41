import type { FolderKind } from '@gdb/shared/folders/folders.schemas';
import { describe, expect, it } from 'vitest';
import type { FolderedDocument } from '../versions/versions.service.ts';
import type { FolderRow } from './folders.repo.ts';
import { type TreeReads, treeSource, treeSources } from './tree-source.ts';

const open = { read: [], write: [] };
const folderRow = (id: string, name: string, parent_id: string | null): FolderRow =>
  ({ id, name, parent_id, kind: 'schema', tags: open, metadata_tags: [] }) as unknown as FolderRow;
const doc = (id: string, name: string, folder: string | null) =>
  ({
    familyId: id,
    id,
    name,
    folder,
    tags: open,
    metadataTags: [],
    versions: [{ _id: id, version: 1, vLocked: false }],
    readOnly: false,
  }) as FolderedDocument;

/** Reads that count how often the folders and documents are read, with a stamp the test sets. */
function countingReads() {
  const reads = { folderStamp: 'one', documentStamp: 'one', folders: 0, documents: 0 };
  const source: TreeReads = {
    folderStamp: async (kind: FolderKind) => `${kind} ${reads.folderStamp}`,
    documentStamp: async (kind: FolderKind) => `${kind} ${reads.documentStamp}`,
    folders: async () => {
      reads.folders += 1;
      return [folderRow('root', 'Root', null)];
    },
    documents: async () => {
      reads.documents += 1;
      return [doc(`d${reads.documents}`, 'Doc', null)];
    },
  };
  return { reads, source };
}

describe('tree sources', () => {
  it('reads the folders or the documents of a kind again only when their stamp has changed, each kind apart', async () => {
    const { reads, source } = countingReads();
    const sources = treeSources(source);
    const first = await sources('schema');
    expect(await sources('schema')).toBe(first);
    expect([reads.folders, reads.documents]).toEqual([1, 1]);
    await sources('component');
    expect([reads.folders, reads.documents]).toEqual([2, 2]);
    reads.documentStamp = 'two';
    const again = await sources('schema');
    expect(again).not.toBe(first);
    expect(again.documents.get('root')?.map((d) => d.id)).toEqual(['d3']);
    expect(await sources('schema')).toBe(again);
    expect([reads.folders, reads.documents]).toEqual([2, 3]);
    reads.folderStamp = 'two';
    const third = await sources('schema');
    expect(third).not.toBe(again);
    expect(third.documents.get('root')?.map((d) => d.id)).toEqual(['d3']);
    expect([reads.folders, reads.documents]).toEqual([3, 3]);
  });

  it('shares one read between calls that find the same new stamp, and reads again after a failed read', async () => {
    const { reads, source } = countingReads();
    let fail = true;
    const sources = treeSources({
      ...source,
      documents: async (kind) => {
        if (fail) {
          fail = false;
          throw new Error('lost connection');
        }
        return source.documents(kind);
      },
    });
    await expect(sources('schema')).rejects.toThrow('lost connection');
    const [a, b] = await Promise.all([sources('schema'), sources('schema')]);
    expect(a).toBe(b);
    expect([reads.folders, reads.documents]).toEqual([2, 1]);
  });

  it('puts each folder and document under its parent by name ignoring case, equal names in the order read', () => {
    const folders = [
      folderRow('root', 'Root', null),
      folderRow('b', 'beta', 'root'),
      folderRow('A', 'Alpha', 'root'),
      folderRow('a', 'alpha', 'root'),
      folderRow('in', 'inner', 'b'),
    ];
    const docs = [doc('z', 'Zed', 'b'), doc('x', 'x', null), doc('y', 'Y', 'gone'), doc('w', 'w', 'root')];
    const source = treeSource('schema', folders, docs);
    expect(source.root?.id).toBe('root');
    expect(source.folders.get('root')?.map((f) => f.id)).toEqual(['A', 'a', 'b']);
    expect(source.folders.get('b')?.map((f) => f.id)).toEqual(['in']);
    expect(source.documents.get('root')?.map((d) => d.id)).toEqual(['w', 'x', 'y']);
    expect(source.documents.get('b')?.map((d) => d.id)).toEqual(['z']);
    expect(source.chains.get('in')?.map((f) => f.id)).toEqual(['in', 'b', 'root']);
  });
});
