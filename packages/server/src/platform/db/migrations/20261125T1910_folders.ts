import { type Kysely, sql } from 'kysely';

/** The root folder of each kind: fixed ids, so every database starts with the same four. */
const ROOTS = [
  ['a0000000-0000-4000-8000-000000000001', 'pipeline', 'Pipelines'],
  ['a0000000-0000-4000-8000-000000000002', 'schema', 'Data models'],
  ['a0000000-0000-4000-8000-000000000003', 'component', 'Components'],
  ['a0000000-0000-4000-8000-000000000004', 'sdk', 'SDK functions'],
] as const;

/**
 * Folders of the explorer trees (docs/product.md §18.3): one tree per kind below its root (the
 * only folder without a parent); names are unique under one parent; badges like documents'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table folders (
      id uuid primary key,
      kind text not null check (kind in ('pipeline', 'schema', 'component', 'sdk')),
      parent_id uuid references folders (id),
      name text not null,
      tags jsonb not null default '{"read": [], "write": []}',
      metadata_tags uuid[] not null default '{}',
      created_at timestamptz not null default now(),
      created_by uuid,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index folders_one_root_idx on folders (kind) where parent_id is null`.execute(db);
  await sql`create unique index folders_name_idx on folders (parent_id, name)`.execute(db);
  for (const [id, kind, name] of ROOTS) {
    await sql`insert into folders (id, kind, parent_id, name) values (${id}, ${kind}, null, ${name})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists folders`.execute(db);
}
