import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database, Db } from '../db/index.ts';
import type { PGlitePool } from '../db/pglite-pool.ts';

/** The notification channel the triggers of migration 20261122T0810 write to. */
const LIVE_CHANNEL = 'gdb_live';

export interface FeedListener {
  /** One notification payload, in commit order. */
  onPayload(payload: string): void;
  /** The listener was disconnected and is back: notifications may have been missed. */
  onResync(): void;
}

/**
 * Sends a notification on the live channel as the triggers do (`{t, op, rows}` or `{t, op, id, row}`,
 * under 8,000 bytes): every instance's hub hears it at commit, for what is announced without a row
 * of its own (a test run's log lines).
 */
export async function notifyLive(k: Kysely<Database>, payload: string): Promise<void> {
  await sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`.execute(k);
}

/** Hears the database's change notifications. */
export interface ChangeFeed {
  /** Starts listening (once); resolves when LISTEN is in place. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The `{t, id}` of a notification about one of `tables`, else undefined. A payload that names none
 * of them is passed over before it is parsed: most are the live channel's rows, a run's log lines
 * among them in notifications of up to 7,700 bytes.
 */
export function noteAbout(payload: string, tables: readonly string[]): { t: string; id: unknown } | undefined {
  if (!tables.some((t) => payload.includes(`"${t}"`))) return undefined;
  let note: { t?: unknown; id?: unknown };
  try {
    note = JSON.parse(payload) as typeof note;
  } catch {
    return undefined;
  }
  return typeof note.t === 'string' && tables.includes(note.t) ? { t: note.t, id: note.id } : undefined;
}

/**
 * Runs a feed while the app runs: started once it is ready, stopped when it closes. A feed that
 * cannot start is logged (`what` names its keeper), whose time-to-live then bounds what it misses.
 */
export function runWithApp(app: FastifyInstance, feed: ChangeFeed, what: string): void {
  app.addHook('onReady', async () => {
    await feed
      .start()
      .catch((err: unknown) => app.log.warn({ err }, `${what}: no change listener; kept entries expire on their own`));
  });
  app.addHook('onClose', () => feed.stop());
}

/** The one listening feed of a database, shared by every listener of this process (the hub, the caches). */
class SharedFeed {
  readonly #listeners = new Set<FeedListener>();
  readonly #feed: ChangeFeed;

  constructor(db: Db, log: FastifyBaseLogger) {
    const fanOut: FeedListener = {
      onPayload: (payload) => {
        for (const l of this.#listeners) l.onPayload(payload);
      },
      onResync: () => {
        for (const l of this.#listeners) l.onResync();
      },
    };
    if (db.pglite) this.#feed = new PGliteFeed(db.pglite, fanOut);
    else if (db.pgPool) this.#feed = new PgFeed(db.pgPool.options, fanOut, log);
    else throw new Error('No database engine to listen to.');
  }

  async join(listener: FeedListener): Promise<void> {
    this.#listeners.add(listener);
    try {
      await this.#feed.start();
    } catch (error) {
      this.#listeners.delete(listener);
      throw error;
    }
  }

  /** The last listener to leave stops the feed. */
  async leave(listener: FeedListener): Promise<void> {
    if (!this.#listeners.delete(listener) || this.#listeners.size > 0) return;
    await this.#feed.stop();
  }
}

const sharedFeeds = new WeakMap<Db, SharedFeed>();

/**
 * A feed for one listener. Every feed of a database in this process shares one listening
 * connection (PostgreSQL) or `listen` (PGlite): each notification is heard once and handed to
 * every listener started, in the order they started; a reconnection resyncs them all.
 */
export function createChangeFeed(db: Db, listener: FeedListener, log: FastifyBaseLogger): ChangeFeed {
  let shared = sharedFeeds.get(db);
  if (!shared) {
    shared = new SharedFeed(db, log);
    sharedFeeds.set(db, shared);
  }
  const feed = shared;
  return { start: () => feed.join(listener), stop: () => feed.leave(listener) };
}

class PGliteFeed implements ChangeFeed {
  readonly #pool: PGlitePool;
  readonly #listener: FeedListener;
  #started: Promise<void> | undefined;
  #unlisten: (() => Promise<void>) | undefined;

  constructor(pool: PGlitePool, listener: FeedListener) {
    this.#pool = pool;
    this.#listener = listener;
  }

  start(): Promise<void> {
    this.#started ??= this.#listen().catch((error: unknown) => {
      this.#started = undefined;
      throw error;
    });
    return this.#started;
  }

  async #listen(): Promise<void> {
    // LISTEN runs on PGlite's one session: take the pool's turn so it never lands inside another transaction.
    const client = await this.#pool.connect();
    try {
      this.#unlisten = await this.#pool.pg.listen(LIVE_CHANNEL, (payload) => this.#listener.onPayload(payload));
    } finally {
      client.release();
    }
  }

  async stop(): Promise<void> {
    const unlisten = this.#unlisten;
    this.#unlisten = undefined;
    this.#started = undefined;
    if (!unlisten || this.#pool.pg.closed) return;
    const client = await this.#pool.connect();
    try {
      await unlisten();
    } finally {
      client.release();
    }
  }
}

const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 10_000;

/** A dedicated connection that LISTENs and reconnects with back-off when it is lost. */
class PgFeed implements ChangeFeed {
  readonly #config: pg.ClientConfig;
  readonly #listener: FeedListener;
  readonly #log: FastifyBaseLogger;
  #client: pg.Client | undefined;
  #started: Promise<void> | undefined;
  #stopped = false;
  #retryMs = RETRY_FIRST_MS;
  #timer: NodeJS.Timeout | undefined;

  constructor(config: pg.PoolConfig, listener: FeedListener, log: FastifyBaseLogger) {
    this.#config = { connectionString: config.connectionString, ssl: config.ssl, application_name: 'gdb-live' };
    this.#listener = listener;
    this.#log = log;
  }

  start(): Promise<void> {
    this.#stopped = false;
    this.#started ??= this.#connect().catch((error: unknown) => {
      this.#started = undefined;
      throw error;
    });
    return this.#started;
  }

  async #connect(): Promise<void> {
    const client = new pg.Client(this.#config);
    client.on('notification', (msg) => {
      if (msg.channel === LIVE_CHANNEL && msg.payload) this.#listener.onPayload(msg.payload);
    });
    client.on('error', (error) => {
      this.#log.warn({ err: error }, 'live: change listener connection failed');
      this.#lost(client);
    });
    client.on('end', () => this.#lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (error) {
      client.end().catch(() => {});
      throw error;
    }
    if (this.#stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#retryMs = RETRY_FIRST_MS;
  }

  #lost(client: pg.Client): void {
    if (client !== this.#client) return;
    this.#client = undefined;
    client.end().catch(() => {});
    if (!this.#stopped) this.#retry();
  }

  #retry(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#connect().then(
        () => {
          this.#log.info('live: change listener reconnected');
          this.#listener.onResync();
        },
        (error: unknown) => {
          this.#log.warn({ err: error, retryMs: this.#retryMs }, 'live: change listener reconnect failed');
          this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
          if (!this.#stopped) this.#retry();
        },
      );
    }, this.#retryMs);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#started = undefined;
    clearTimeout(this.#timer);
    const client = this.#client;
    this.#client = undefined;
    if (client) await client.end().catch(() => {});
  }
}
