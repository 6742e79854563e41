import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import type { LogsTable } from '../../platform/db/tables.ts';

/** Which log lines to read: by upload, by import, or both (AND). */
export interface LogSelection {
  uploadIds?: readonly string[] | undefined;
  importIds?: readonly string[] | undefined;
}

/** SQL for the append-only logs table. */
export function logsRepo(k: Kysely<Database>) {
  return {
    /**
     * Appends rows in their order: several as five arrays unnested in one statement (five
     * parameters, not five per row: a run's thousand lines are built and sent as one small
     * statement), numbered in the order given.
     */
    insert: async (rows: readonly Insertable<LogsTable>[]): Promise<void> => {
      if (rows.length <= 1) {
        await k
          .insertInto('logs')
          .values([...rows])
          .execute();
        return;
      }
      const column = <T>(of: (row: Insertable<LogsTable>) => T) => rows.map(of);
      await sql`insert into logs (level, message, data_sub_kind, upload_id, import_id)
        select l, m, d, u, i
        from unnest(${column((r) => r.level)}::text[], ${column((r) => r.message)}::text[],
          ${column((r) => r.data_sub_kind ?? null)}::text[], ${column((r) => r.upload_id ?? null)}::uuid[],
          ${column((r) => r.import_id ?? null)}::uuid[]) with ordinality as x(l, m, d, u, i, n)
        order by n`.execute(k);
    },
    /** The newest `limit` lines of the selection, newest first. */
    newest: (selection: LogSelection, limit: number) => {
      let q = k.selectFrom('logs').selectAll();
      if (selection.uploadIds) q = q.where('upload_id', 'in', [...selection.uploadIds]);
      if (selection.importIds) q = q.where('import_id', 'in', [...selection.importIds]);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    byIds: (ids: readonly number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom('logs')
            .selectAll()
            .where('id', 'in', [...ids])
            .orderBy('id')
            .execute(),
  };
}
