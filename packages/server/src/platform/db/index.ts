import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { errorMessage } from '../error-message.ts';
import { migrations } from './migrations/index.ts';
import { PGlitePool } from './pglite-pool.ts';
import type { Database } from './tables.ts';

export type { Database } from './tables.ts';

/** The one database handle every module receives. */
export interface Db {
  kysely: Kysely<Database>;
  engine: 'pglite' | 'postgres';
  /** Runs one raw statement with parameters, outside Kysely (pg-boss, LISTEN/NOTIFY helpers). */
  query(sql: string, params?: readonly unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** The embedded engine, when that is the one in use. */
  pglite: PGlitePool | undefined;
  /** The server pool, when PostgreSQL is in use. */
  pgPool: pg.Pool | undefined;
  close(): Promise<void>;
}

const INT8 = 20;

/** Connections a PostgreSQL pool opens at most unless told (DB_POOL_SIZE). */
export const DEFAULT_POOL_SIZE = 20;

/**
 * Opens PostgreSQL when a URL is given (a pool of at most `poolSize` connections), else PGlite
 * under `dataDir/db` (or in memory when `dataDir` is undefined).
 */
export async function openDb(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  poolSize?: number;
  /** PGlite only: starts from this dump of a data directory (`dumpDataDir`) instead of an empty cluster. */
  loadDataDir?: Blob;
}): Promise<Db> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    pool.on('error', () => {
      // An idle client lost its server; the pool replaces it on next use.
    });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      kysely,
      engine: 'postgres',
      query: async (text, params) => pool.query(text, params ? [...params] : []),
      pglite: undefined,
      pgPool: pool,
      close: () => kysely.destroy(),
    };
  }
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.join(options.dataDir, 'db');
    fs.mkdirSync(dir, { recursive: true });
  }
  const pool = await PGlitePool.open(dir, options.loadDataDir);
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool.kyselyPool() }) });
  return {
    kysely,
    engine: 'pglite',
    query: (text, params) => pool.query(text, params),
    pglite: pool,
    pgPool: undefined,
    close: () => kysely.destroy(),
  };
}

/** Brings the schema to the newest migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${errorMessage(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
