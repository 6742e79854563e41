import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/index.ts';

/** The schema data-store tables live in, apart from the application's own tables. */
const DATA_STORE_SCHEMA = 'data_store';

/** A row as stored: its key (the key fields' values as JSON text) and the whole row. */
export interface StoredRow {
  key: string;
  data: Record<string, unknown>;
}

/** SQL for the tables of the data store; every table name reaching here is already validated. */
export function datastoreRepo(k: Kysely<Database>) {
  const table = (name: string) => sql.id(DATA_STORE_SCHEMA, name);
  return {
    /** Creates the table when it is missing; the lock keeps two writers from creating it at once. */
    async ensureTable(name: string): Promise<void> {
      await sql`select pg_advisory_xact_lock(hashtext(${`${DATA_STORE_SCHEMA}.${name}`}))`.execute(k);
      await sql`
        create table if not exists ${table(name)} (
          key text primary key,
          data jsonb not null,
          import_id uuid,
          updated_at timestamptz not null default now()
        )`.execute(k);
    },
    /** Inserts or replaces rows by key; `rows` has no key twice. */
    async upsert(name: string, rows: readonly StoredRow[], importId: string | null): Promise<void> {
      if (rows.length === 0) return;
      const json = JSON.stringify(rows);
      await sql`
        insert into ${table(name)} (key, data, import_id)
        select r.key, r.data, ${importId}::uuid from jsonb_to_recordset(${json}::jsonb) as r(key text, data jsonb)
        on conflict (key) do update set data = excluded.data, import_id = excluded.import_id, updated_at = now()`.execute(k);
    },
    /** The names of the data store's tables. */
    async tables(): Promise<string[]> {
      const r = await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = ${DATA_STORE_SCHEMA} order by table_name`.execute(k);
      return r.rows.map((row) => row.name);
    },
    /** Rows of a table by key order, at most `limit`. */
    async rows(name: string, limit: number): Promise<StoredRow[]> {
      const r = await sql<StoredRow>`select key, data from ${table(name)} order by key limit ${limit}`.execute(k);
      return r.rows;
    },
  };
}
