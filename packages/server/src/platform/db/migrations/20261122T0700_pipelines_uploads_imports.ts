import { type Kysely, sql } from 'kysely';

/** Pipelines (versioned documents), user assignments, uploads, imports, jobs and logs (docs/product.md §8, §9, §11, §12). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table pipelines (
      id uuid primary key,
      family_id uuid not null,
      version integer not null,
      v_locked boolean not null default false,
      v_parents uuid[] not null default '{}',
      read_only boolean not null default false,
      folder_id uuid,
      tags jsonb not null default '{"read": [], "write": []}',
      metadata_tags uuid[] not null default '{}',
      sys_version integer not null default 1,
      name text not null,
      is_master boolean not null default false,
      master_pipeline uuid references pipelines (id) on delete set null,
      component uuid,
      pipeline_schema uuid,
      data_sources jsonb not null default '[]',
      data_sinks jsonb not null default '[]',
      brand uuid references brands (id),
      locale uuid references locales (id),
      product_line uuid references product_lines (id),
      datakind uuid references datakinds (id),
      is_hidden boolean not null default false,
      created_at timestamptz not null default now(),
      created_by uuid,
      updated_at timestamptz not null default now(),
      updated_by uuid,
      unique (family_id, version)
    )`.execute(db);
  await sql`create index pipelines_master_idx on pipelines (master_pipeline)`.execute(db);
  await sql`create index pipelines_folder_idx on pipelines (folder_id)`.execute(db);

  await sql`
    create table user_pipelines (
      user_id uuid not null references users (id) on delete cascade,
      pipeline_family uuid not null,
      is_active boolean not null default true,
      primary key (user_id, pipeline_family)
    )`.execute(db);

  await sql`
    create table uploads (
      id uuid primary key,
      pipeline_id uuid not null references pipelines (id) on delete cascade,
      data_sub_kind text not null,
      "from" text not null check ("from" in ('source', 'destination')),
      status text not null default 'pending' check (status in ('pending', 'processing', 'valid', 'invalid')),
      original_filename text,
      content_type text,
      size bigint not null default 0,
      file_key text,
      row_count integer,
      import_id uuid,
      enabled boolean not null default true,
      created_at timestamptz not null default now(),
      created_by uuid
    )`.execute(db);
  await sql`create index uploads_pipeline_kind_idx on uploads (pipeline_id, data_sub_kind, created_at desc)`.execute(db);
  await sql`create index uploads_import_idx on uploads (import_id)`.execute(db);

  await sql`
    create table jobs (
      id uuid primary key,
      pipeline_id uuid references pipelines (id) on delete set null,
      job_kind text not null check (job_kind in ('immediate', 'scheduled', 'repeat', 'sequential')),
      repeat_pattern text not null default '',
      scheduled_date text,
      scheduled_time text,
      next_run_at timestamptz,
      last_executed_at timestamptz,
      scheduled_by uuid references users (id) on delete set null,
      restart_on_error boolean not null default false,
      list_pipelines uuid[] not null default '{}',
      state text not null default 'active',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index jobs_pipeline_idx on jobs (pipeline_id)`.execute(db);

  await sql`
    create table imports (
      id uuid primary key,
      pipeline_id uuid references pipelines (id) on delete set null,
      job_id uuid references jobs (id) on delete set null,
      parent_import_id uuid references imports (id) on delete set null,
      scheduled_at timestamptz,
      started_at timestamptz,
      end_at timestamptz,
      state text not null default 'pending'
        check (state in ('pending', 'busy', 'progress', 'sequential', 'done', 'failed', 'aborted')),
      success boolean,
      progress integer not null default 0,
      user_id uuid references users (id) on delete set null,
      destinations text[] not null default '{}',
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index imports_pipeline_idx on imports (pipeline_id, created_at desc)`.execute(db);
  await sql`create index imports_started_idx on imports (started_at desc nulls last)`.execute(db);
  await sql`create index imports_scheduled_idx on imports (scheduled_at)`.execute(db);
  await sql`create index imports_user_idx on imports (user_id)`.execute(db);
  // One running import per pipeline, enforced by the database as well as the service.
  await sql`create unique index imports_one_running on imports (pipeline_id) where state in ('busy', 'progress', 'sequential')`.execute(
    db,
  );

  await sql`
    create table logs (
      id bigserial primary key,
      log_date timestamptz not null default clock_timestamp(),
      level text not null check (level in ('error', 'warn', 'info', 'success')),
      message text not null,
      data_sub_kind text,
      upload_id uuid,
      import_id uuid
    )`.execute(db);
  await sql`create index logs_upload_idx on logs (upload_id, id)`.execute(db);
  await sql`create index logs_import_idx on logs (import_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['logs', 'imports', 'jobs', 'uploads', 'user_pipelines', 'pipelines']) {
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
  }
}
