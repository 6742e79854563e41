import { type Kysely, sql } from 'kysely';

/**
 * Every instance keeps each kind's folders, with their badges, for the document access check: a
 * folder created, renamed, moved, badged or deleted is announced (`{t: 'folders', id: kind}`) and
 * forgets the instance's copy of that kind. The database sends one announcement of a kind per
 * transaction, however many folders it changed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function live_notify_folders() returns trigger language plpgsql as $$
    begin
      perform pg_notify('gdb_live', jsonb_build_object('t', 'folders', 'id', coalesce(new.kind, old.kind))::text);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger folders_live after insert or update or delete on folders
    for each row execute function live_notify_folders()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists folders_live on folders`.execute(db);
  await sql`drop function if exists live_notify_folders()`.execute(db);
}
