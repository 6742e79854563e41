import type { Insertable, Kysely } from 'kysely';
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
    insert: (rows: Insertable<LogsTable>[]) => k.insertInto('logs').values(rows).execute(),
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
