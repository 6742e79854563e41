import { type Kysely, sql } from 'kysely';

/**
 * Published endpoints (docs/product.md §18.7): one per pipeline version, at a path unique below the
 * runtime base URL (compared ignoring case). The caller's key is kept as its SHA-256 only. The
 * last publisher is who the calls act for (the uploads and imports they make name them). The
 * pipeline may be deleted after: the row stays, shown as 'Err: NO PIPELINE', until un-published.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table endpoints (
      id uuid primary key,
      pipeline_id uuid not null,
      path text not null,
      name text not null,
      description text not null default '',
      calls_per_minute integer not null default 600 check (calls_per_minute between 1 and 6000),
      key_hash text not null,
      created_at timestamptz not null default now(),
      created_by uuid,
      created_by_name text not null,
      updated_at timestamptz not null default now(),
      updated_by uuid,
      updated_by_name text not null
    )`.execute(db);
  await sql`create unique index endpoints_pipeline_idx on endpoints (pipeline_id)`.execute(db);
  await sql`create unique index endpoints_path_idx on endpoints (lower(path))`.execute(db);
  await sql`create unique index endpoints_key_idx on endpoints (key_hash)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists endpoints`.execute(db);
}
