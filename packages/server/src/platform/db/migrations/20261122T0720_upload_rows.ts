import { type Kysely, sql } from 'kysely';

/** Where an upload's checked rows are kept, and when its parse was claimed (to resume after a crash). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table uploads add column rows_key text`.execute(db);
  await sql`alter table uploads add column claimed_at timestamptz`.execute(db);
  await sql`create index uploads_unfinished_idx on uploads (status) where status in ('pending', 'processing')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists uploads_unfinished_idx`.execute(db);
  await sql`alter table uploads drop column if exists claimed_at`.execute(db);
  await sql`alter table uploads drop column if exists rows_key`.execute(db);
}
