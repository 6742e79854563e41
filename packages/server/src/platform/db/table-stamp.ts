import { type Kysely, type RawBuilder, sql } from 'kysely';

/**
 * A stamp of the committed rows of a table (those matching `where`): their count and the sum of a
 * 64-bit hash of each row's id and `xmin`, the transaction that wrote that version of the row. An
 * insert, update or delete made by any instance changes it once committed (an updated row gets a
 * new `xmin`), so a copy of the rows kept with the stamp read before them is known stale by
 * reading the stamp again. The table needs an `id` column.
 */
export async function tableStamp<DB>(
  db: Kysely<DB>,
  table: RawBuilder<unknown>,
  where: RawBuilder<unknown> = sql`true`,
): Promise<string> {
  const result = await sql<{ stamp: string }>`select count(*)::text || ':' ||
    coalesce(sum(hashtextextended(id::text || ':' || xmin::text, 0)), 0)::text as stamp
    from ${table} where ${where}`.execute(db);
  return result.rows[0]?.stamp ?? '';
}
