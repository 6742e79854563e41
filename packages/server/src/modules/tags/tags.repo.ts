import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import type { TagsTable } from '../../platform/db/tables.ts';

export type TagRow = Selectable<TagsTable>;

/** SQL for badges (tags). */
export function tagsRepo(k: Kysely<Database>) {
  return {
    all: () => k.selectFrom('tags').selectAll().orderBy('name').execute(),
    byId: (id: string) => k.selectFrom('tags').selectAll().where('id', '=', id).executeTakeFirst(),
    byIds: (ids: readonly string[]) =>
      ids.length === 0 ? Promise.resolve([]) : k.selectFrom('tags').selectAll().where('id', 'in', ids).execute(),
    insert: (row: Insertable<TagsTable>) => k.insertInto('tags').values(row).returningAll().executeTakeFirstOrThrow(),
    update: (id: string, patch: Updateable<TagsTable>) =>
      k.updateTable('tags').set(patch).where('id', '=', id).returningAll().executeTakeFirst(),
    deleteByIds: async (ids: readonly string[]) =>
      (await k.deleteFrom('tags').where('id', 'in', ids).returning('id').execute()).map((r) => r.id),
  };
}
