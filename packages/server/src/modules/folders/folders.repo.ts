import type { FolderKind } from '@gdb/shared/folders/folders.schemas';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import { tableStamp } from '../../platform/db/table-stamp.ts';
import type { FoldersTable } from '../../platform/db/tables.ts';

export type FolderRow = Selectable<FoldersTable>;

/** SQL for folders. */
export function foldersRepo(k: Kysely<Database>) {
  return {
    byId: (id: string) => k.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirst(),
    /** Every folder of a kind, the root included, by name. */
    ofKind: (kind: FolderKind) => k.selectFrom('folders').selectAll().where('kind', '=', kind).orderBy('name').execute(),
    /** A stamp of the kind's folders that changes with any folder of it created, changed or deleted (see `tableStamp`). */
    stamp: (kind: FolderKind) => tableStamp(k, sql.table('folders'), sql`kind = ${kind}`),
    root: (kind: FolderKind) =>
      k.selectFrom('folders').selectAll().where('kind', '=', kind).where('parent_id', 'is', null).executeTakeFirstOrThrow(),
    /** The names under a folder (the folder being renamed left out). */
    namesUnder: async (parentId: string, except?: string) => {
      let q = k.selectFrom('folders').select('name').where('parent_id', '=', parentId);
      if (except) q = q.where('id', '<>', except);
      return new Set((await q.execute()).map((r) => r.name));
    },
    insert: (row: { id: string; kind: FolderKind; parent_id: string; name: string; created_by: string }) =>
      k.insertInto('folders').values(row).returningAll().executeTakeFirstOrThrow(),
    update: (id: string, patch: { name?: string; parent_id?: string }) =>
      k
        .updateTable('folders')
        .set({ ...patch, updated_at: new Date() })
        .where('id', '=', id)
        .execute(),
    /** Sets a folder's read, write and metadata badges. */
    setTags: (id: string, tags: { read: string[][]; write: string[][] }, metadataTags: readonly string[]) =>
      k
        .updateTable('folders')
        .set({ tags: JSON.stringify(tags), metadata_tags: [...metadataTags], updated_at: new Date() })
        .where('id', '=', id)
        .execute(),
    /** Deletes folders, the deepest first so no parent goes before its children. */
    removeDeepestFirst: async (idsTopDown: readonly string[]) => {
      for (const id of [...idsTopDown].reverse()) await k.deleteFrom('folders').where('id', '=', id).execute();
    },
  };
}
