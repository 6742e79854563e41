import { type Kysely, sql } from 'kysely';

/**
 * The activity record: who changed what and when — corrections of an upload's cells (gone with
 * the upload), saves, locks, new versions and deletes of documents, changes of a user's roles or badges.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table activity (
      id uuid primary key,
      at timestamptz not null default now(),
      actor_id uuid,
      actor_name text not null default '',
      kind text not null,
      document_kind text,
      document_id uuid,
      family_id uuid,
      document_name text,
      document_version integer,
      upload_id uuid references uploads (id) on delete cascade,
      pipeline_id uuid,
      target_user_id uuid,
      details jsonb not null default '{}'::jsonb
    )`.execute(db);
  await sql`create index activity_at_idx on activity (at desc, id desc)`.execute(db);
  await sql`create index activity_upload_idx on activity (upload_id, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists activity`.execute(db);
}
