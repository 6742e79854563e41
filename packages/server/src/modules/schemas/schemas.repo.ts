import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database, SchemasTable } from '../../platform/db/tables.ts';

/** SQL for data models (schema documents). */
export function schemasRepo(k: Kysely<Database>) {
  return {
    byId: (id: string) => k.selectFrom('schemas').selectAll().where('id', '=', id).executeTakeFirst(),
    byIds: (ids: readonly string[]) =>
      ids.length ? k.selectFrom('schemas').selectAll().where('id', 'in', ids).execute() : Promise.resolve([]),
    /** The folder and badges of these versions, each row held (FOR SHARE) until the transaction ends: none can be deleted meanwhile. */
    heldByIds: (ids: readonly string[]) =>
      ids.length
        ? k.selectFrom('schemas').select(['id', 'folder_id', 'tags']).where('id', 'in', ids).forShare().execute()
        : Promise.resolve([]),
    /** The version a name reads: the newest locked one, else the newest. */
    byName: (name: string) =>
      k
        .selectFrom('schemas')
        .selectAll()
        .where('name', '=', name)
        .orderBy('v_locked', 'desc')
        .orderBy('version', 'desc')
        .orderBy('updated_at', 'desc')
        .limit(1)
        .executeTakeFirst(),
    /** A version of another family with this name ignoring case (its folder and badges, for the read check), if any. */
    otherFamilyNamed: async (name: string, familyId: string | null) => {
      let q = k.selectFrom('schemas').select(['id', 'folder_id', 'tags']).where(sql`lower(name)`, '=', name.toLowerCase());
      if (familyId) q = q.where('family_id', '<>', familyId);
      return q.limit(1).executeTakeFirst();
    },
    /** Every version for pickers, by name ignoring case, then version. */
    list: () =>
      k
        .selectFrom('schemas')
        .select(['id', 'family_id', 'name', 'version', 'v_locked', 'folder_id', 'tags'])
        .orderBy(sql`lower(name)`)
        .orderBy('version')
        .execute(),
    insert: (row: Insertable<SchemasTable>) => k.insertInto('schemas').values(row).returningAll().executeTakeFirstOrThrow(),
  };
}

export type SchemaRow = NonNullable<Awaited<ReturnType<ReturnType<typeof schemasRepo>['byId']>>>;
