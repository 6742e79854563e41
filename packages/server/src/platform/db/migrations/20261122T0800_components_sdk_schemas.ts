import { type Kysely, sql } from 'kysely';

/** The columns every versioned document shares (docs/product.md §18.1), written once for the three tables below. */
const versionColumns = sql`
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
  created_at timestamptz not null default now(),
  created_by uuid,
  updated_at timestamptz not null default now(),
  updated_by uuid`;

/** Data models (schemas), components and SDK functions: versioned documents with their own fields. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table schemas (
      ${versionColumns},
      name text not null,
      json_schema jsonb not null default '{}',
      unique (family_id, version)
    )`.execute(db);
  await sql`create index schemas_folder_idx on schemas (folder_id)`.execute(db);
  await sql`create index schemas_name_idx on schemas (name, version desc)`.execute(db);

  await sql`
    create table components (
      ${versionColumns},
      name text not null,
      description text not null default '',
      kind text not null default 'instruction' check (kind in ('workflow', 'forEach', 'instruction', 'function')),
      inputs jsonb not null default '[]',
      outputs jsonb not null default '[]',
      instances jsonb not null default '[]',
      links jsonb not null default '[]',
      js_code text not null default '',
      test_payload jsonb not null default '{}',
      test_context jsonb not null default '{}',
      sdk uuid[] not null default '{}',
      dependencies uuid[] not null default '{}',
      unique (family_id, version)
    )`.execute(db);
  await sql`create index components_folder_idx on components (folder_id)`.execute(db);
  // "Who instantiates this version" is asked before a delete and by the usage views.
  await sql`create index components_dependencies_idx on components using gin (dependencies)`.execute(db);
  await sql`create index components_sdk_idx on components using gin (sdk)`.execute(db);

  await sql`
    create table sdk_functions (
      ${versionColumns},
      function_name text not null,
      js_code text not null default '',
      test_payload jsonb not null default '[]',
      documentation text not null default '',
      input text not null default '',
      output text not null default '',
      error text not null default '',
      modules jsonb not null default '[]',
      unique (family_id, version)
    )`.execute(db);
  await sql`create index sdk_functions_name_idx on sdk_functions (function_name, version desc)`.execute(db);
  await sql`create index sdk_functions_folder_idx on sdk_functions (folder_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['sdk_functions', 'components', 'schemas']) {
    await sql`drop table if exists ${sql.table(t)}`.execute(db);
  }
}
