import { type Kysely, sql } from 'kysely';

/**
 * The SDK editor's test runs are recorded too: a run is of a component version or of an SDK
 * function version, exactly one of the two.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table test_runs alter column component_id drop not null`.execute(db);
  await sql`alter table test_runs add column if not exists sdk_function_id uuid`.execute(db);
  await sql`
    alter table test_runs add constraint test_runs_one_subject
      check ((component_id is null) <> (sdk_function_id is null))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from test_runs where component_id is null`.execute(db);
  await sql`alter table test_runs drop constraint if exists test_runs_one_subject`.execute(db);
  await sql`alter table test_runs drop column if exists sdk_function_id`.execute(db);
  await sql`alter table test_runs alter column component_id set not null`.execute(db);
}
