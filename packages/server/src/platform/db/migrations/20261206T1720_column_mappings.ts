import { type Kysely, sql } from 'kysely';

/**
 * The column mappings of a pipeline's data sources (docs/product.md §9): for each header met (its
 * signature, the SHA-256 of its normalised names), which column goes to which field of the data
 * model and which are ignored. A file with the same header is mapped without asking.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists column_mappings (
      pipeline_id uuid not null,
      data_sub_kind text not null,
      signature_hash text not null,
      columns jsonb not null,
      updated_at timestamptz not null default now(),
      updated_by uuid,
      primary key (pipeline_id, data_sub_kind, signature_hash)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists column_mappings`.execute(db);
}
