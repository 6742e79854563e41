import { PGlite, types } from '@electric-sql/pglite';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { Mutex } from './mutex.ts';
import { TurnSlicer } from './turn-slicer.ts';

type Command = PostgresQueryResult<unknown>['command'];

export interface QueryResultLike {
  command: Command;
  rowCount: number;
  rows: Record<string, unknown>[];
}

export interface PoolClientLike {
  query(sql: string, params?: readonly unknown[]): Promise<QueryResultLike>;
  release(): void;
}

const ACQUIRE_TIMEOUT_MS = 30_000;

/**
 * How long the embedded database's statements may run back to back before the event loop reads
 * its sockets again. PGlite answers on the server's own thread without waiting on I/O, so fifty
 * users' statements ran one after another for 20–100 ms a turn, and an upload beside them got one
 * 64 KiB read per turn: a 20 MiB file took 4–5 times as long to import as alone.
 */
const SLICE_MS = 2;

/**
 * The embedded database's memory is WebAssembly memory, which grows and is never given back.
 * PostgreSQL's default 128 MB of shared buffers, once touched, was most of an idle server's
 * resident memory (about 230 MiB for PGlite opened at 128 MB, 120 MiB at 32 MB); the operating
 * system's page cache keeps the files that PGlite reads anyway.
 */
const EMBEDDED_SETTINGS = ['shared_buffers=32MB'];

/**
 * Bytes to and from bytea's text form (`\x` and two hex digits a byte), as node-postgres does,
 * both done natively: PGlite's own make a string of every byte, which took 260–380 ms to insert
 * one 1 MiB part of a stored file (25–45 ms this way).
 */
const bytea = {
  serialize(bytes: unknown): string {
    if (!(bytes instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
    return `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
  },
  parse: (text: string): Buffer => Buffer.from(text.slice(2), 'hex'),
};

/** The command Kysely reads to report affected rows: a plain select, else the first write verb. */
function commandOf(sql: string): Command {
  if (/^\s*select\b/i.test(sql)) return 'SELECT';
  const verb = /\b(insert|update|delete|merge)\b/i.exec(sql)?.[1]?.toLowerCase();
  if (verb === 'insert') return 'INSERT';
  if (verb === 'update') return 'UPDATE';
  if (verb === 'delete') return 'DELETE';
  if (verb === 'merge') return 'MERGE';
  return 'SELECT';
}

/**
 * A pg.Pool look-alike over one PGlite instance. PGlite has a single session, so every
 * checkout holds a mutex until released: two transactions never interleave on it.
 */
export class PGlitePool {
  readonly pg: PGlite;
  readonly #mutex = new Mutex();
  readonly #exclusive: boolean;
  readonly #slicer = new TurnSlicer(SLICE_MS);

  /** `exclusive: false` drops the mutex; it exists only to show what goes wrong without it. */
  constructor(pg: PGlite, options: { exclusive?: boolean } = {}) {
    this.pg = pg;
    this.#exclusive = options.exclusive ?? true;
  }

  /** Opens the database in `dataDir` (in memory when undefined), starting from a dumped one when `loadDataDir` is given. */
  static async open(dataDir: string | undefined, loadDataDir?: Blob): Promise<PGlitePool> {
    const pg = await PGlite.create(dataDir ?? 'memory://', {
      parsers: { [types.INT8]: (v: string) => Number(v), [types.BYTEA]: bytea.parse },
      serializers: { [types.BYTEA]: bytea.serialize },
      postgresqlconf: EMBEDDED_SETTINGS,
      ...(loadDataDir ? { loadDataDir } : {}),
    });
    return new PGlitePool(pg);
  }

  async connect(): Promise<PoolClientLike> {
    const release = this.#exclusive ? await this.#acquire() : () => {};
    return { query: (sql, params) => this.#run(sql, params), release };
  }

  /** This pool in the shape Kysely's PostgresDialect takes (no cursors: PGlite answers whole results). */
  kyselyPool(): PostgresPool {
    return {
      connect: async (): Promise<PostgresPoolClient> => {
        const client = await this.connect();
        function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
        function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
        function query(
          sql: string | PostgresCursor<unknown>,
          parameters?: ReadonlyArray<unknown>,
        ): Promise<PostgresQueryResult<unknown>> | PostgresCursor<unknown> {
          if (typeof sql !== 'string') throw new Error('PGlite does not support cursors');
          return client.query(sql, parameters);
        }
        return { query, release: () => client.release() };
      },
      end: () => this.end(),
    };
  }

  /** One statement outside any checkout's transaction (waits its turn). */
  async query(sql: string, params?: readonly unknown[]): Promise<QueryResultLike> {
    const client = await this.connect();
    try {
      return await client.query(sql, params);
    } finally {
      client.release();
    }
  }

  /** Several statements without parameters, e.g. a migration or pg-boss's schema. */
  async exec(sql: string): Promise<void> {
    const client = await this.connect();
    try {
      await this.pg.exec(sql);
    } finally {
      client.release();
    }
  }

  async end(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }

  /** Waits for the session; a long wait is almost always a query made outside the open transaction's handle. */
  async #acquire(): Promise<() => void> {
    let timer: NodeJS.Timeout | undefined;
    const waiting = this.#mutex.acquire();
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`PGlite: no connection after ${ACQUIRE_TIMEOUT_MS} ms (a query outside the open transaction?)`)),
        ACQUIRE_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([waiting, timeout]);
    } catch (error) {
      void waiting.then((release) => release());
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async #run(sql: string, params?: readonly unknown[]): Promise<QueryResultLike> {
    await this.#slicer.pause();
    const result = await this.pg.query<Record<string, unknown>>(sql, params ? [...params] : []);
    const command = commandOf(sql);
    return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
  }
}
