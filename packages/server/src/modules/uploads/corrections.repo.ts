import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/tables.ts';

/** A correction as stored: a cell's new value, or (field '') the row removed. */
export interface StoredCorrection {
  rowIndex: number;
  field: string;
  value: string | null;
  removed: boolean;
}

/** The field of a correction that removes its row. */
export const WHOLE_ROW = '';

/** SQL for the corrections of uploads' rows (the review). */
export function correctionsRepo(k: Kysely<Database>) {
  return {
    async of(uploadId: string): Promise<StoredCorrection[]> {
      const rows = await k
        .selectFrom('upload_corrections')
        .select(['row_index', 'field', 'value', 'removed'])
        .where('upload_id', '=', uploadId)
        .orderBy('row_index')
        .execute();
      return rows.map((r) => ({ rowIndex: r.row_index, field: r.field, value: r.value, removed: r.removed }));
    },
    /** Writes these corrections (one per row and field), replacing those there, in one statement of one parameter. */
    async put(uploadId: string, userId: string, corrections: readonly StoredCorrection[]): Promise<void> {
      if (corrections.length === 0) return;
      const rows = corrections.map((c) => ({ row_index: c.rowIndex, field: c.field, value: c.value, removed: c.removed }));
      await sql`
        insert into upload_corrections (upload_id, row_index, field, value, removed, updated_by)
        select ${uploadId}::uuid, row_index, field, value, removed, ${userId}::uuid
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(row_index integer, field text, value text, removed boolean)
        on conflict (upload_id, row_index, field)
        do update set value = excluded.value, removed = excluded.removed, updated_by = excluded.updated_by, updated_at = now()
      `.execute(k);
    },
    /** Forgets these corrections (a cell set back to its value in the file, a row kept again). */
    async drop(uploadId: string, cells: readonly { rowIndex: number; field: string }[]): Promise<void> {
      if (cells.length === 0) return;
      await k
        .deleteFrom('upload_corrections')
        .where('upload_id', '=', uploadId)
        .where((eb) => eb.or(cells.map((c) => eb.and([eb('row_index', '=', c.rowIndex), eb('field', '=', c.field)]))))
        .execute();
    },
  };
}
