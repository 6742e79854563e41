import { type Kysely, sql } from 'kysely';
import { SYSTEM_SCHEMAS } from './20261125T1900_system_schemas.ts';

/**
 * A data model is kept as its author wrote it: `jsonb` orders an object's keys by their length,
 * which put a model's properties — the order of its form's fields and of its output columns — in
 * another order than the author's. `json` keeps the text as written. The system data models,
 * seeded before, are written again in their order where their content is still the seeded one
 * (only the order of their keys changes). Data models saved before keep the order `jsonb` gave them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table schemas alter column json_schema drop default`.execute(db);
  await sql`alter table schemas alter column json_schema type json using json_schema::json`.execute(db);
  await sql`alter table schemas alter column json_schema set default '{}'::json`.execute(db);
  for (const [name, content] of Object.entries(SYSTEM_SCHEMAS)) {
    const text = JSON.stringify(content);
    await sql`update schemas set json_schema = ${text}::json
      where lower(name) = lower(${name}) and json_schema::jsonb = ${text}::jsonb`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table schemas alter column json_schema drop default`.execute(db);
  await sql`alter table schemas alter column json_schema type jsonb using json_schema::jsonb`.execute(db);
  await sql`alter table schemas alter column json_schema set default '{}'::jsonb`.execute(db);
}
