import { type Kysely, sql } from 'kysely';

/**
 * The corrections made to an upload's rows in the review grid (a cell's new value, or the row
 * removed), kept as long as the upload is; and the corrected upload's link to the one it fixes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table uploads add column if not exists corrected_from uuid references uploads (id) on delete set null`.execute(
    db,
  );
  await sql`
    create table upload_corrections (
      upload_id uuid not null references uploads (id) on delete cascade,
      row_index integer not null,
      field text not null,
      value text,
      removed boolean not null default false,
      updated_at timestamptz not null default now(),
      updated_by uuid,
      primary key (upload_id, row_index, field)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists upload_corrections`.execute(db);
  await sql`alter table uploads drop column if exists corrected_from`.execute(db);
}
