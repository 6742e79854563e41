import { type Kysely, sql } from 'kysely';

/**
 * Imports and jobs at run time: the lease a worker holds on a running import (heartbeat and stop
 * request, kept apart from `imports` so heartbeats do not reach live subscribers), run attempts,
 * the logbook's sort key and the indexes behind its filters, one active schedule per pipeline, and
 * the `data_store` schema that data sinks write their rows into.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`update imports set success = false where success is null`.execute(db);
  await sql`alter table imports alter column success set default false`.execute(db);
  await sql`alter table imports alter column success set not null`.execute(db);
  await sql`alter table imports add column attempts integer not null default 0`.execute(db);
  await sql`
    alter table imports add column sort_at timestamptz
    generated always as (coalesce(started_at, scheduled_at, created_at)) stored`.execute(db);
  await sql`create index imports_sort_idx on imports (sort_at desc, id desc)`.execute(db);
  await sql`create index imports_user_sort_idx on imports (user_id, sort_at desc)`.execute(db);
  await sql`create index imports_success_sort_idx on imports (success, sort_at desc)`.execute(db);
  await sql`create index imports_pending_idx on imports (scheduled_at) where state = 'pending'`.execute(db);
  await sql`create index imports_job_idx on imports (job_id)`.execute(db);
  await sql`create index imports_parent_idx on imports (parent_import_id)`.execute(db);
  for (const column of ['brand', 'locale', 'product_line', 'datakind']) {
    await sql`create index ${sql.id(`pipelines_${column}_idx`)} on pipelines (${sql.id(column)})`.execute(db);
  }

  await sql`
    create table import_leases (
      import_id uuid primary key references imports (id) on delete cascade,
      worker_id text not null,
      heartbeat_at timestamptz not null default now(),
      abort_requested boolean not null default false,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index import_leases_heartbeat_idx on import_leases (heartbeat_at)`.execute(db);

  await sql`create index jobs_due_idx on jobs (next_run_at) where state = 'active'`.execute(db);
  await sql`
    create unique index jobs_one_schedule on jobs (pipeline_id)
    where state = 'active' and job_kind in ('scheduled', 'repeat')`.execute(db);

  await sql`create schema if not exists data_store`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop schema if exists data_store cascade`.execute(db);
  await sql`drop index if exists jobs_one_schedule`.execute(db);
  await sql`drop index if exists jobs_due_idx`.execute(db);
  await sql`drop table if exists import_leases`.execute(db);
  for (const column of ['brand', 'locale', 'product_line', 'datakind']) {
    await sql`drop index if exists ${sql.id(`pipelines_${column}_idx`)}`.execute(db);
  }
  for (const index of [
    'imports_parent_idx',
    'imports_job_idx',
    'imports_pending_idx',
    'imports_success_sort_idx',
    'imports_user_sort_idx',
    'imports_sort_idx',
  ]) {
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  }
  await sql`alter table imports drop column if exists sort_at`.execute(db);
  await sql`alter table imports drop column if exists attempts`.execute(db);
  await sql`alter table imports alter column success drop not null`.execute(db);
  await sql`alter table imports alter column success drop default`.execute(db);
}
