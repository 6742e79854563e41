import { isRecord } from '@gdb/shared/values/is-record';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/index.ts';
import { invalid, notFound } from '../../platform/http/errors.ts';
import { datastoreRepo, type StoredRow } from './datastore.repo.ts';

/** Table names the data store accepts: lower-case SQL identifiers, not PostgreSQL's own prefix. */
const TABLE_NAME = /^[a-z][a-z0-9_]{0,62}$/;
/** Rows sent to the database per statement. */
const CHUNK = 5000;

/** Where a data sink writes its rows: a table and the fields that identify a row. */
export interface DataStoreTarget {
  table: string;
  keyFields: readonly string[];
}

/** A data-store write that cannot be done; the message names the table and the row. */
export class DataStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataStoreError';
  }
}

/** True for a table name the data store accepts. */
export function isTableName(name: string): boolean {
  return TABLE_NAME.test(name) && !name.startsWith('pg_');
}

/**
 * The rows keyed by their key fields' values, a later row replacing an earlier one with the same
 * key. Throws on a row that is not an object or lacks a key field.
 */
function keyRows(target: DataStoreTarget, rows: readonly unknown[]): StoredRow[] {
  const byKey = new Map<string, Record<string, unknown>>();
  rows.forEach((row, index) => {
    if (!isRecord(row)) throw new DataStoreError(`Data store ${target.table}: row ${index + 1} is not an object.`);
    const values = target.keyFields.map((field) => {
      const value = row[field];
      if (value === undefined || value === null || value === '') {
        throw new DataStoreError(`Data store ${target.table}: row ${index + 1} has no value for key field ${field}.`);
      }
      return value;
    });
    const key = JSON.stringify(values);
    byKey.delete(key);
    byKey.set(key, row);
  });
  return [...byKey].map(([key, data]) => ({ key, data }));
}

export function datastoreService(ctx: AppContext) {
  return {
    /**
     * Upserts rows into `data_store.<table>` by key fields. Give it the transaction the rows belong
     * to: everything a run writes to the data store commits or rolls back together.
     */
    async upsert(k: Kysely<Database>, target: DataStoreTarget, rows: readonly unknown[], importId: string | null) {
      if (!isTableName(target.table)) throw new DataStoreError(`Data store: ${target.table} is not a valid table name.`);
      if (target.keyFields.length === 0) throw new DataStoreError(`Data store ${target.table}: no key field.`);
      const keyed = keyRows(target, rows);
      const repo = datastoreRepo(k);
      await repo.ensureTable(target.table);
      for (let i = 0; i < keyed.length; i += CHUNK) await repo.upsert(target.table, keyed.slice(i, i + CHUNK), importId);
      return keyed.length;
    },

    /** The data store's table names. */
    tables: () => datastoreRepo(ctx.db.kysely).tables(),

    /** Rows of one table in key order (at most `limit`). */
    async rows(table: string, limit = 1000): Promise<StoredRow[]> {
      if (!isTableName(table)) throw invalid(`${table} is not a valid table name.`);
      const repo = datastoreRepo(ctx.db.kysely);
      if (!(await repo.tables()).includes(table)) throw notFound(`No data store table ${table}.`);
      return repo.rows(table, Math.min(Math.max(limit, 1), 10_000));
    },
  };
}

export type DatastoreService = ReturnType<typeof datastoreService>;
