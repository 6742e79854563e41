import type { VersionKind } from '@gdb/shared/versions/versions.schemas';
import { adapterOf } from './version-graph.ts';
import type { VersionedRow } from './versions.repo.ts';

/** A document as the explorer trees list it: one per family (docs/product.md §18.3). */
export interface FolderedDocument {
  familyId: string;
  /** The newest version's id, name, folder (null: the root of the kind) and badges stand for the document. */
  id: string;
  name: string;
  folder: string | null;
  tags: { read: string[][]; write: string[][] };
  metadataTags: string[];
  /** Every version by number, with the ids of the rows. */
  versions: { _id: string; version: number; vLocked: boolean }[];
  /** The newest version is read-only: no one may change the document through it. */
  readOnly?: boolean;
}

/** Groups versions (sorted by family, then number) into one document per family. */
export function familiesOf(kind: VersionKind, rows: readonly VersionedRow[]): FolderedDocument[] {
  const byFamily = new Map<string, VersionedRow[]>();
  for (const row of rows) {
    const family = byFamily.get(row.family_id);
    if (family) family.push(row);
    else byFamily.set(row.family_id, [row]);
  }
  return [...byFamily.values()].map((family) => {
    const newest = family.reduce((a, b) => (b.version > a.version ? b : a));
    return {
      familyId: newest.family_id,
      id: newest.id,
      name: adapterOf(kind).nameOf(newest),
      folder: newest.folder_id,
      tags: { read: newest.tags?.read ?? [], write: newest.tags?.write ?? [] },
      metadataTags: newest.metadata_tags ?? [],
      versions: family.map((v) => ({ _id: v.id, version: v.version, vLocked: v.v_locked })),
      readOnly: newest.read_only === true,
    };
  });
}
