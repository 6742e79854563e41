import crypto from 'node:crypto';
import { type Kysely, sql } from 'kysely';

/**
 * Writes system data models (the forms' data models, read by name) from a migration: a name not
 * stored yet becomes version 1; a stored one gets a new version with this content, its parent the
 * newest version. Either way the version written is locked, so the name reads it (the newest
 * locked version). A migration that upgrades one calls this with the whole new content; earlier
 * versions stay for what points at them.
 */
export async function putSystemSchemas(db: Kysely<unknown>, schemas: Record<string, Record<string, unknown>>): Promise<void> {
  for (const [name, jsonSchema] of Object.entries(schemas)) {
    const { rows } = await sql<{ id: string; family_id: string; version: number }>`
      select id, family_id, version from schemas where lower(name) = lower(${name}) order by version desc limit 1`.execute(db);
    const newest = rows[0];
    const id = crypto.randomUUID();
    const content = JSON.stringify(jsonSchema);
    await sql`
      insert into schemas (id, family_id, version, v_locked, v_parents, name, json_schema)
      values (${id}, ${newest?.family_id ?? id}, ${(newest?.version ?? 0) + 1}, true,
        ${newest ? [newest.id] : []}::uuid[], ${name}, ${content})`.execute(db);
  }
}

/** Removes every version of these system data models (the down of the migration that seeded them). */
export async function dropSystemSchemas(db: Kysely<unknown>, names: readonly string[]): Promise<void> {
  for (const name of names) await sql`delete from schemas where lower(name) = lower(${name})`.execute(db);
}
