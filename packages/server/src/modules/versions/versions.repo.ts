import { type Kysely, type Selectable, sql } from 'kysely';
import { tableStamp } from '../../platform/db/table-stamp.ts';
import type { Database, VersionColumns } from '../../platform/db/tables.ts';

/** The tables of versioned documents: they share VersionColumns (docs/product.md §18.1). */
export type VersionedTable = 'schemas' | 'components' | 'sdk_functions' | 'pipelines';

/** A row of any versioned table: the shared columns typed, the kind's own read by its adapter. */
export type VersionedRow = Selectable<VersionColumns> & Record<string, unknown>;

/** The columns a new version sets itself; every other column is copied from its source. */
const OWN_COLUMNS = new Set([
  'id',
  'version',
  'v_locked',
  'v_parents',
  'sys_version',
  'created_at',
  'created_by',
  'updated_at',
  'updated_by',
]);

type TreeRow = [string, string, number, boolean, string | null, unknown, string[], string, boolean];

/**
 * Every version of a table (by family, then number) with only what an explorer tree shows: its
 * name (`nameColumn`), folder and badges. The rows come as one JSON text, parsed at once: far
 * cheaper than ten thousand rows decoded one by one.
 */
async function treeRows(db: Kysely<Database>, t: VersionedTable, nameColumn: string): Promise<VersionedRow[]> {
  const result = await sql<{ rows: string }>`select coalesce(json_agg(json_build_array(id, family_id, version, v_locked,
    folder_id, tags, metadata_tags, ${sql.ref(nameColumn)}, read_only) order by family_id, version), '[]')::text as rows
    from ${sql.table(t)}`.execute(db);
  const list = JSON.parse(result.rows[0]?.rows ?? '[]') as TreeRow[];
  return list.map(([id, family_id, version, v_locked, folder_id, tags, metadata_tags, name, read_only]) => ({
    id,
    family_id,
    version,
    v_locked,
    folder_id,
    tags,
    metadata_tags,
    [nameColumn]: name,
    read_only,
  })) as unknown as VersionedRow[];
}

/** SQL shared by the four versioned tables; the table is chosen per call. */
export function versionsRepo(db: Kysely<Database>) {
  // Every table below has the shared columns; the kind's own columns are reached by name.
  const k = db as unknown as Kysely<Record<VersionedTable, VersionColumns>>;
  const rows = (found: readonly unknown[]) => found as VersionedRow[];
  return {
    byId: async (t: VersionedTable, id: string) =>
      (await k.selectFrom(t).selectAll().where('id', '=', id).executeTakeFirst()) as VersionedRow | undefined,
    byIds: async (t: VersionedTable, ids: readonly string[]) =>
      ids.length ? rows(await k.selectFrom(t).selectAll().where('id', 'in', ids).execute()) : [],
    /** Every version of a family, by version number. */
    family: async (t: VersionedTable, familyId: string) =>
      rows(await k.selectFrom(t).selectAll().where('family_id', '=', familyId).orderBy('version').execute()),
    /** The newest version of each family (by number). */
    newestOf: async (t: VersionedTable, familyIds: readonly string[]) => {
      if (familyIds.length === 0) return [];
      const result = await sql`select distinct on (family_id) * from ${sql.table(t)}
        where family_id in (${sql.join(familyIds)}) order by family_id, version desc`.execute(db);
      return rows(result.rows);
    },
    /** Copies a version as the next number of its family: unlocked, its parent the source. */
    copy: async (t: VersionedTable, source: VersionedRow, to: { id: string; userId: string | null }) => {
      const kept = Object.keys(source).filter((c) => !OWN_COLUMNS.has(c));
      const cols = [...OWN_COLUMNS, ...kept].map((c) => sql.ref(c));
      const values = [
        sql`${to.id}::uuid`,
        sql`(select max(version) + 1 from ${sql.table(t)} where family_id = ${source.family_id})`,
        sql`false`,
        sql`array[${source.id}]::uuid[]`,
        sql`1`,
        sql`now()`,
        sql`${to.userId}::uuid`,
        sql`now()`,
        sql`${to.userId}::uuid`,
        ...kept.map((c) => sql.ref(c)),
      ];
      const result = await sql`insert into ${sql.table(t)} (${sql.join(cols)})
        select ${sql.join(values)} from ${sql.table(t)} where id = ${source.id} returning *`.execute(db);
      return rows(result.rows)[0];
    },
    /** Sets a version's own columns (values in their write form: JSON text for JSONB). */
    patch: (t: VersionedTable, id: string, patch: Record<string, unknown>) =>
      sql`update ${sql.table(t)} set ${sql.join(Object.entries(patch).map(([c, v]) => sql`${sql.ref(c)} = ${v}`))}
        where id = ${id}`.execute(db),
    /** Saves a draft when its save counter is still the one given; answers nothing otherwise. */
    saveDraft: async (t: VersionedTable, id: string, sysVersion: number, patch: Record<string, unknown>) => {
      const sets = Object.entries(patch).map(([c, v]) => sql`${sql.ref(c)} = ${v}`);
      const result = await sql`update ${sql.table(t)}
        set ${sql.join([...sets, sql`sys_version = sys_version + 1`, sql`updated_at = now()`])}
        where id = ${id} and sys_version = ${sysVersion} and not v_locked returning *`.execute(db);
      return rows(result.rows)[0];
    },
    lock: (t: VersionedTable, ids: readonly string[]) =>
      k
        .updateTable(t)
        .set({ v_locked: true, sys_version: sql`sys_version + 1`, updated_at: sql`now()` })
        .where('id', 'in', ids)
        .where('v_locked', '=', false)
        .execute(),
    /** Deletes a draft; answers nothing when it is gone or locked. */
    removeDraft: (t: VersionedTable, id: string) =>
      k.deleteFrom(t).where('id', '=', id).where('v_locked', '=', false).returning('id').executeTakeFirst(),
    /** The children of a deleted version take its parents instead, so the graph stays joined. */
    reparentChildren: (t: VersionedTable, deleted: VersionedRow) =>
      sql`update ${sql.table(t)}
        set v_parents = array_cat(array_remove(v_parents, ${deleted.id}::uuid), ${sql.val(deleted.v_parents)}::uuid[])
        where family_id = ${deleted.family_id} and v_parents @> array[${deleted.id}]::uuid[]`.execute(db),
    /** Every version of the kind (by family, then number), or those in the given folders; for the explorer trees. */
    inFolders: async (t: VersionedTable, folderIds?: readonly string[]) => {
      if (folderIds?.length === 0) return [];
      let q = k.selectFrom(t).selectAll();
      if (folderIds) q = q.where('folder_id', 'in', folderIds);
      return rows(await q.orderBy('family_id').orderBy('version').execute());
    },
    /** Every version of the kind (by family, then number) with only what an explorer tree shows. */
    treeRows: (t: VersionedTable, nameColumn: string) => treeRows(db, t, nameColumn),
    /** A stamp of every committed row of a table: it changes with any insert, update or delete (see `tableStamp`). */
    stamp: (t: VersionedTable) => tableStamp(db, sql.table(t)),
    /** Puts every version of a family in a folder. */
    moveFamily: (t: VersionedTable, familyId: string, folderId: string) =>
      k.updateTable(t).set({ folder_id: folderId, updated_at: sql`now()` }).where('family_id', '=', familyId).execute(),
    /** Sets the read, write and metadata badges of every version of a family; answers how many versions took them. */
    setFamilyTags: async (
      t: VersionedTable,
      familyId: string,
      tags: { read: string[][]; write: string[][] },
      metadataTags: readonly string[],
    ) => {
      const result = await sql`update ${sql.table(t)}
        set tags = ${JSON.stringify(tags)}::jsonb, metadata_tags = ${sql.val([...metadataTags])}::uuid[], updated_at = now()
        where family_id = ${familyId}`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
    /** Deletes these versions. */
    removeIds: (t: VersionedTable, ids: readonly string[]) =>
      ids.length ? k.deleteFrom(t).where('id', 'in', ids).execute() : Promise.resolve([]),
    /** Versions (other than `id` itself) whose reference columns mention `id`. */
    mentioning: async (t: VersionedTable, columns: readonly string[], id: string) => {
      const like = `%${id}%`;
      const any = sql.join(
        columns.map((c) => sql`${sql.ref(c)}::text like ${like}`),
        sql` or `,
      );
      const result = await sql`select * from ${sql.table(t)} where id <> ${id} and (${any}) order by version`.execute(db);
      return rows(result.rows);
    },
  };
}

export type VersionsRepo = ReturnType<typeof versionsRepo>;
