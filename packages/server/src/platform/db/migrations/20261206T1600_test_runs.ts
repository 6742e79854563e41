import { type Kysely, sql } from 'kysely';

/**
 * The component editor's test runs: who started each (by the id the editor gave it), so that the
 * live channel sends its log lines to them and to super-admins only. Rows older than a day are
 * deleted as new runs start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists test_runs (
      id uuid primary key,
      user_id uuid not null,
      component_id uuid not null,
      started_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index if not exists test_runs_started_at_idx on test_runs (started_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists test_runs`.execute(db);
}
