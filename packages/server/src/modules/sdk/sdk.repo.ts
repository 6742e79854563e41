import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { Database, SdkFunctionsTable } from '../../platform/db/tables.ts';

/** SQL for SDK functions. */
export function sdkRepo(k: Kysely<Database>) {
  const all = () => k.selectFrom('sdk_functions').selectAll();
  return {
    byId: (id: string) => all().where('id', '=', id).executeTakeFirst(),
    byIds: (ids: readonly string[]) => (ids.length ? all().where('id', 'in', ids).execute() : Promise.resolve([])),
    /** The newest version named so. */
    latestByName: (name: string) =>
      all()
        .where('function_name', '=', name)
        .orderBy('version', 'desc')
        .orderBy('updated_at', 'desc')
        .limit(1)
        .executeTakeFirst(),
    /** Another family already using this name, if any. */
    otherFamilyNamed: (name: string, familyId: string | null) => {
      let q = k.selectFrom('sdk_functions').select('family_id').where('function_name', '=', name);
      if (familyId) q = q.where('family_id', '<>', familyId);
      return q.limit(1).executeTakeFirst();
    },
    list: () => all().orderBy(sql`lower(function_name)`).orderBy('version').execute(),
    insert: (row: Insertable<SdkFunctionsTable>) =>
      k.insertInto('sdk_functions').values(row).returningAll().executeTakeFirstOrThrow(),
    /** Updates a version when its save counter is still the one given; answers nothing otherwise. */
    update: (id: string, sysVersion: number, patch: Updateable<SdkFunctionsTable>) =>
      k
        .updateTable('sdk_functions')
        .set({ ...patch, sys_version: sysVersion + 1, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('sys_version', '=', sysVersion)
        .returningAll()
        .executeTakeFirst(),
    remove: (id: string) => k.deleteFrom('sdk_functions').where('id', '=', id).executeTakeFirst(),
  };
}

export type SdkRow = NonNullable<Awaited<ReturnType<ReturnType<typeof sdkRepo>['byId']>>>;
