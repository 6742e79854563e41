import { type Kysely, sql } from 'kysely';

/**
 * A source upload remembers the import that took it (and when), so that the next run leaves it
 * unless it is switched on again, and where it was sent from (the wizard or the testing view).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table uploads add column if not exists imported_at timestamptz`.execute(db);
  await sql`alter table uploads add column if not exists imported_by uuid`.execute(db);
  await sql`alter table uploads add column if not exists sent_from text not null default 'wizard'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table uploads drop column if exists imported_at`.execute(db);
  await sql`alter table uploads drop column if exists imported_by`.execute(db);
  await sql`alter table uploads drop column if exists sent_from`.execute(db);
}
