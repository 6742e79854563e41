import { type Insertable, type Kysely, sql, type Updateable } from 'kysely';
import type { ComponentsTable, Database } from '../../platform/db/tables.ts';

/** SQL for components. */
export function componentsRepo(k: Kysely<Database>) {
  const all = () => k.selectFrom('components').selectAll();
  return {
    byId: (id: string) => all().where('id', '=', id).executeTakeFirst(),
    byIds: (ids: readonly string[]) => (ids.length ? all().where('id', 'in', ids).execute() : Promise.resolve([])),
    /** The dropdown list: every version, by name then version. */
    list: () =>
      k
        .selectFrom('components')
        .select(['id', 'family_id', 'name', 'version', 'v_locked', 'kind', 'folder_id', 'description', 'tags'])
        .orderBy(sql`lower(name)`)
        .orderBy('version')
        .execute(),
    insert: (row: Insertable<ComponentsTable>) => k.insertInto('components').values(row).returningAll().executeTakeFirstOrThrow(),
    /** Updates a version when its save counter is still the one given; answers nothing otherwise. */
    update: (id: string, sysVersion: number, patch: Updateable<ComponentsTable>) =>
      k
        .updateTable('components')
        .set({ ...patch, sys_version: sysVersion + 1, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('sys_version', '=', sysVersion)
        .returningAll()
        .executeTakeFirst(),
    /** Component versions whose code lists this SDK function version. */
    usingSdkFunction: (id: string) =>
      k
        .selectFrom('components')
        .select(['id', 'name', 'version'])
        .where(sql<boolean>`sdk @> array[${id}]::uuid[]`)
        .orderBy('name')
        .execute(),
  };
}

export type ComponentRow = NonNullable<Awaited<ReturnType<ReturnType<typeof componentsRepo>['byId']>>>;
