import { type Kysely, sql } from 'kysely';

/**
 * A pipeline holds at most one active job of each schedule kind, instead of one in all: a user
 * who may not touch a repeat job set by someone else can still plan a Later run beside it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists jobs_one_schedule`.execute(db);
  await sql`
    create unique index jobs_one_schedule on jobs (pipeline_id, job_kind)
    where state = 'active' and job_kind in ('scheduled', 'repeat')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists jobs_one_schedule`.execute(db);
  await sql`
    create unique index jobs_one_schedule on jobs (pipeline_id)
    where state = 'active' and job_kind in ('scheduled', 'repeat')`.execute(db);
}
