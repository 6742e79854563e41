import { type Kysely, sql } from 'kysely';

/**
 * File bytes stored out of line without compression: uploads, stored rows and output files are
 * mostly large, written once and read whole, and compressing them took longer than storing them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file_blobs alter column bytes set storage external`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table file_blobs alter column bytes set storage extended`.execute(db);
}
