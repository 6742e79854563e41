import type { Insertable, Kysely } from 'kysely';
import type { Database, SchemasTable } from '../../platform/db/tables.ts';

/** SQL for data models (schema documents). */
export function schemasRepo(k: Kysely<Database>) {
  return {
    byId: (id: string) => k.selectFrom('schemas').selectAll().where('id', '=', id).executeTakeFirst(),
    byIds: (ids: readonly string[]) =>
      ids.length ? k.selectFrom('schemas').selectAll().where('id', 'in', ids).execute() : Promise.resolve([]),
    insert: (row: Insertable<SchemasTable>) => k.insertInto('schemas').values(row).returningAll().executeTakeFirstOrThrow(),
  };
}

export type SchemaRow = NonNullable<Awaited<ReturnType<ReturnType<typeof schemasRepo>['byId']>>>;
