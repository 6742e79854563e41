import type { Insertable, Selectable } from 'kysely';
import { isForeignKeyViolation } from '../../platform/db/errors.ts';
import type { ListenerStatesTable, ListenersTable } from '../../platform/db/tables.ts';
import type { Executor } from '../../platform/db/transaction.ts';

export type ListenerRow = Selectable<ListenersTable>;
export type ListenerStateRow = Selectable<ListenerStatesTable>;
type NewListener = Insertable<ListenersTable>;
/** What a re-publish changes: everything but who created it and when. */
export type ListenerChange = Omit<
  NewListener,
  'id' | 'pipeline_id' | 'created_at' | 'created_by' | 'created_by_name' | 'updated_at'
>;

/** The listeners, listener_states and listener_messages tables (owned by this module). */
export function listenersRepo(db: Executor) {
  return {
    all: (): Promise<ListenerRow[]> => db.selectFrom('listeners').selectAll().orderBy('created_at').execute(),
    byId: (id: string): Promise<ListenerRow | undefined> =>
      db.selectFrom('listeners').selectAll().where('id', '=', id).executeTakeFirst(),
    byPipeline: (pipelineId: string): Promise<ListenerRow | undefined> =>
      db.selectFrom('listeners').selectAll().where('pipeline_id', '=', pipelineId).executeTakeFirst(),
    insert: (row: NewListener) => db.insertInto('listeners').values(row).execute(),
    update: (id: string, change: ListenerChange) =>
      db
        .updateTable('listeners')
        .set({ ...change, updated_at: new Date() })
        .where('id', '=', id)
        .execute(),
    remove: (id: string) => db.deleteFrom('listeners').where('id', '=', id).execute(),

    /** What every instance reports of these listeners. */
    states: (ids: readonly string[]): Promise<ListenerStateRow[]> =>
      ids.length === 0
        ? Promise.resolve([])
        : db.selectFrom('listener_states').selectAll().where('listener_id', 'in', ids).orderBy('hostname').execute(),
    /** Records what this instance reports of a listener (nothing when the listener is gone). */
    async report(listenerId: string, hostname: string, state: string, lastError: string | null): Promise<void> {
      const updated_at = new Date();
      try {
        await db
          .insertInto('listener_states')
          .values({ listener_id: listenerId, hostname, state, last_error: lastError, updated_at })
          .onConflict((oc) => oc.columns(['listener_id', 'hostname']).doUpdateSet({ state, last_error: lastError, updated_at }))
          .execute();
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
      }
    },

    /** Which of these message ids the listener already stored. */
    async seen(listenerId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('listener_messages')
        .select('message_id')
        .where('listener_id', '=', listenerId)
        .where('message_id', 'in', ids)
        .execute();
      return new Set(rows.map((r) => r.message_id));
    },
    /** Records message ids as stored (one already there stays). */
    async remember(listenerId: string, ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      await db
        .insertInto('listener_messages')
        .values(ids.map((id) => ({ listener_id: listenerId, message_id: id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    },
    /** Forgets the message ids recorded before `before`. */
    forget: (before: Date) => db.deleteFrom('listener_messages').where('seen_at', '<', before).execute(),
  };
}
