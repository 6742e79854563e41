import type { Insertable, Selectable } from 'kysely';
import type { EndpointsTable } from '../../platform/db/tables.ts';
import type { Executor } from '../../platform/db/transaction.ts';

export type EndpointRow = Selectable<EndpointsTable>;
type NewEndpoint = Insertable<EndpointsTable>;
/** What a re-publish changes: everything but who created it and when. */
type Republish = Pick<
  NewEndpoint,
  'path' | 'name' | 'description' | 'calls_per_minute' | 'key_hash' | 'updated_by' | 'updated_by_name'
>;

/** The endpoints table (owned by this module). */
export function endpointsRepo(db: Executor) {
  return {
    all: (): Promise<EndpointRow[]> => db.selectFrom('endpoints').selectAll().orderBy('path').execute(),
    byId: (id: string): Promise<EndpointRow | undefined> =>
      db.selectFrom('endpoints').selectAll().where('id', '=', id).executeTakeFirst(),
    byPipeline: (pipelineId: string): Promise<EndpointRow | undefined> =>
      db.selectFrom('endpoints').selectAll().where('pipeline_id', '=', pipelineId).executeTakeFirst(),
    /** The endpoint at a path, compared ignoring case. */
    byPath: (path: string): Promise<EndpointRow | undefined> =>
      db
        .selectFrom('endpoints')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['path']), '=', path.toLowerCase()))
        .executeTakeFirst(),
    insert: (row: NewEndpoint) => db.insertInto('endpoints').values(row).execute(),
    update: (id: string, change: Republish) =>
      db
        .updateTable('endpoints')
        .set({ ...change, updated_at: new Date() })
        .where('id', '=', id)
        .execute(),
    remove: (id: string) => db.deleteFrom('endpoints').where('id', '=', id).execute(),
  };
}
