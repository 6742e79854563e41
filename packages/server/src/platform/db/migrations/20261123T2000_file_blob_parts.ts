import { type Kysely, sql } from 'kysely';

/**
 * A file stored in parts of at most 1 MiB, one row each (`part` from 0, `size` the whole file's):
 * one `bytea` parameter of 20 MB is copied several times over by the driver on its way out and
 * parsed whole by the server, and storing it took about twice as long as storing its parts.
 * Files stored before are one part each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file_blobs add column part integer not null default 0`.execute(db);
  await sql`alter table file_blobs drop constraint file_blobs_pkey`.execute(db);
  await sql`alter table file_blobs add primary key (key, part)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Each file's parts joined back into its first row.
  await sql`
    update file_blobs f
    set bytes = (select string_agg(p.bytes, ''::bytea order by p.part) from file_blobs p where p.key = f.key)
    where f.part = 0 and exists (select 1 from file_blobs p where p.key = f.key and p.part > 0)`.execute(db);
  await sql`delete from file_blobs where part > 0`.execute(db);
  await sql`alter table file_blobs drop constraint file_blobs_pkey`.execute(db);
  await sql`alter table file_blobs drop column part`.execute(db);
  await sql`alter table file_blobs add primary key (key)`.execute(db);
}
