import { CompiledQuery, type Kysely, sql } from 'kysely';
import PgBoss from 'pg-boss';
import type { Db } from '../../platform/db/index.ts';
import type { Database } from '../../platform/db/tables.ts';
import { errorMessage } from '../../platform/error-message.ts';

/** The queue of import runs: one message per run, `{ importId }`. */
const RUN_QUEUE = 'import-run';
/**
 * The clock queue. pg-boss v10 keeps one cron schedule per queue name, so the one schedule that
 * matters — every minute — has a queue of its own; each tick looks for due jobs in `jobs`.
 */
export const CLOCK_QUEUE = 'import-clock';
export const CLOCK_CRON = '* * * * *';

type Rows = { rows: Record<string, unknown>[] };
type Values = unknown[] | undefined;

/**
 * pg-boss's `db`: PostgreSQL through the app's pool; PGlite through its single session, running
 * pg-boss's parameterless multi-statement text (schema, maintenance) with `exec`, whose last
 * result carries the rows.
 */
function bossDb(db: Db) {
  return {
    async executeSql(text: string, values?: Values): Promise<Rows> {
      const pool = db.pglite;
      if (!pool) return db.query(text, values ?? []);
      if (values && values.length > 0) return pool.query(text, values);
      const client = await pool.connect();
      try {
        const results = await pool.pg.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      } finally {
        client.release();
      }
    },
  };
}

/** pg-boss's `db` inside an open Kysely transaction: a message sent with it commits with the transaction. */
function trxDb(k: Kysely<Database>) {
  return {
    async executeSql(text: string, values?: Values): Promise<Rows> {
      const result = await k.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, values ?? []));
      return { rows: [...result.rows] };
    },
  };
}

export interface WorkOptions {
  /** Runs handled at once by this process. */
  concurrency: number;
  /** How often an idle worker looks for runs, in ms. */
  pollMs: number;
  run(importId: string): Promise<void>;
  clock(): Promise<void>;
  onError(error: unknown): void;
}

function importIdOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null || !('importId' in data)) return null;
  return typeof data.importId === 'string' ? data.importId : null;
}

type BossOptions = ConstructorParameters<typeof PgBoss>[0];

/** Installs pg-boss's schema, the run and clock queues and the clock's schedule; answers the sender. */
async function install(options: BossOptions): Promise<PgBoss> {
  const boss = new PgBoss(options);
  boss.on('error', () => {
    // Reported by the working instance; a sender has nothing to do about it.
  });
  await boss.start();
  // Runs are not retried by pg-boss once started: the runner decides (restartOnError).
  // Retries cover a run that failed before it could claim its import.
  await boss.createQueue(RUN_QUEUE, { name: RUN_QUEUE, retryLimit: 3, retryDelay: 5, expireInSeconds: 4 * 3600 });
  await boss.createQueue(CLOCK_QUEUE, { name: CLOCK_QUEUE, retryLimit: 0, expireInSeconds: 600 });
  await boss.schedule(CLOCK_QUEUE, CLOCK_CRON, {});
  return boss;
}

/** The fetch loop's state: the runs in hand, whether it stops, and how to wake it from its wait. */
interface Loop {
  active: Set<Promise<void>>;
  stopping: boolean;
  wake: (() => void) | undefined;
}

/** Works one fetched run in the background: completed when it ends, failed when it throws. */
function startRun(loop: Loop, boss: PgBoss, job: { id: string; data: unknown }, work: WorkOptions): void {
  const importId = importIdOf(job.data);
  const task = (async () => {
    try {
      if (importId) await work.run(importId);
      await boss.complete(RUN_QUEUE, job.id);
    } catch (error) {
      work.onError(error);
      await boss.fail(RUN_QUEUE, job.id, { message: errorMessage(error) });
    }
  })().catch(work.onError);
  loop.active.add(task);
  void task.finally(() => {
    loop.active.delete(task);
    loop.wake?.();
  });
}

/** Waits `ms`, or until the loop is woken (a run ended, one was queued here, or the loop stops). */
async function idle(loop: Loop, ms: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    loop.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  loop.wake = undefined;
}

/** Fetches runs while there is room for them, until the loop stops. */
async function runLoop(loop: Loop, boss: PgBoss, work: WorkOptions): Promise<void> {
  while (!loop.stopping) {
    const free = work.concurrency - loop.active.size;
    let fetched = 0;
    if (free > 0) {
      try {
        const jobs = await boss.fetch<{ importId: string }>(RUN_QUEUE, { batchSize: free });
        fetched = jobs.length;
        for (const job of jobs) startRun(loop, boss, job, work);
      } catch (error) {
        work.onError(error);
      }
    }
    if (loop.stopping) break;
    if (fetched === 0 || loop.active.size >= work.concurrency) await idle(loop, work.pollMs);
  }
}

/** A pg-boss instance that works: it ticks the clock and keeps its queues; the caller fetches runs. */
async function startWorker(adapter: ReturnType<typeof bossDb>, work: WorkOptions): Promise<PgBoss> {
  const boss = new PgBoss({ db: adapter, schedule: true, supervise: true, migrate: false, cronMonitorIntervalSeconds: 10 });
  boss.on('error', work.onError);
  await boss.start();
  await boss.work(CLOCK_QUEUE, { pollingIntervalSeconds: 5 }, async () => {
    await work.clock();
  });
  return boss;
}

/**
 * The job system on pg-boss: installs its schema and queues once, sends runs inside the
 * transaction that records them, and works runs and clock ticks when asked to.
 */
export function createJobQueue(db: Db) {
  const adapter = bossDb(db);
  const options = { db: adapter, schedule: false, supervise: false, migrate: true } as const;
  // Sends need no started instance: only the schema, which `ready()` installs before any send.
  const sender = new PgBoss(options);
  let installed: Promise<PgBoss> | undefined;
  let worker: PgBoss | undefined;
  let running: Promise<void> | undefined;
  const loop: Loop = { active: new Set(), stopping: false, wake: undefined };

  /** The installed sender (pg-boss schema, queues and the clock schedule exist). */
  function ready(): Promise<PgBoss> {
    installed ??= install(options).catch((error: unknown) => {
      installed = undefined;
      throw error;
    });
    return installed;
  }

  /** Stops fetching runs; the runs in hand go on. */
  async function halt(): Promise<void> {
    loop.stopping = true;
    loop.wake?.();
    await running;
  }

  return {
    ready,

    /**
     * Queues a run of an import inside the caller's transaction (`k` is that transaction). Call
     * `ready()` before opening the transaction: installing pg-boss cannot happen inside it.
     */
    async sendRun(k: Kysely<Database>, importId: string, startAfterSeconds = 0): Promise<void> {
      await sender.send(
        RUN_QUEUE,
        { importId },
        { db: trxDb(k), ...(startAfterSeconds > 0 ? { startAfter: startAfterSeconds } : {}) },
      );
    },

    /**
     * Makes the queued runs of a pipeline's waiting imports due now (a run that found its pipeline
     * busy waits with a delay), inside the caller's transaction: a worker fetches them at its next poll.
     */
    async wakeWaitingRuns(k: Kysely<Database>, pipelineId: string): Promise<void> {
      const waiting = sql`select id::text from imports where pipeline_id = ${pipelineId} and state = 'pending'`;
      await sql`update pgboss.job set start_after = now()
        where name = ${RUN_QUEUE} and state in ('created', 'retry') and start_after > now()
          and data->>'importId' in (${waiting})`.execute(k);
    },

    /** Wakes this process's idle worker (a run was just queued here). */
    nudge(): void {
      loop.wake?.();
    },

    /** Starts working runs and clock ticks in this process. */
    async start(work: WorkOptions): Promise<void> {
      if (worker) return;
      await ready();
      loop.stopping = false;
      worker = await startWorker(adapter, work);
      running = runLoop(loop, worker, work);
    },

    /** The runs this process is working on. */
    busy(): number {
      return loop.active.size;
    },

    halt,

    /** Stops fetching, waits up to `graceMs` for the runs in hand, then stops pg-boss. */
    async stop(graceMs = 5000): Promise<void> {
      await halt();
      const deadline = Date.now() + graceMs;
      while (loop.active.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (worker) await worker.stop({ graceful: false, close: false, wait: true });
      worker = undefined;
      running = undefined;
      if (installed) await (await installed).stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
      installed = undefined;
    },
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
