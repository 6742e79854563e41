import { type Kysely, sql } from 'kysely';

/**
 * Every instance looks for unfinished upload checks every few seconds: a partial index holds just
 * those uploads, so the look costs the same however many uploads the table keeps.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists uploads_unfinished_idx on uploads (created_at)
    where status in ('pending', 'processing')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists uploads_unfinished_idx`.execute(db);
}
