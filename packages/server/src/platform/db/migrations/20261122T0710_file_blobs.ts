import { type Kysely, sql } from 'kysely';

/** File bytes kept in the database, so that every instance reads what any instance stored. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table file_blobs (
      key text primary key,
      bytes bytea not null,
      size integer not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists file_blobs`.execute(db);
}
