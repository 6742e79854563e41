import { type Kysely, sql } from 'kysely';

/** The time zone a job's dates, times and repeat pattern are read in (an IANA name). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jobs add column timezone text not null default 'UTC'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jobs drop column if exists timezone`.execute(db);
}
