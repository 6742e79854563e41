import os from 'node:os';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { connectAmqp } from './brokers/amqp.ts';
import type { Connect } from './brokers/consumer.ts';
import { connectMqtt } from './brokers/mqtt.ts';
import { connectNats } from './brokers/nats.ts';
import { type BatchDeps, type Delivery, type InFlight, storeBatch } from './listener-batches.ts';
import { type ListenerWorker, listenerWorker } from './listener-worker.ts';
import { type ListenerRow, listenersRepo } from './listeners.repo.ts';

/** How often an instance reads the published listeners to start, stop or restart its own. */
const RECONCILE_MS = 2000;
/** How long the ids of stored messages are kept for dropping redeliveries. */
const MESSAGE_IDS_KEPT_MS = 7 * 24 * 3600_000;
const PRUNE_MS = 3600_000;

const CONNECTORS: Record<ListenerRow['kind'], Connect> = { amqp: connectAmqp, mqtt: connectMqtt, nats: connectNats };

/** What the listeners' runtime reaches in other modules (wired at start-up). */
interface RuntimeDeps extends Omit<BatchDeps, 'repo'> {
  password(row: ListenerRow): string | undefined;
  /** The run that takes the uploads stored so far: the waiting one, or a new one (queued while one runs). */
  imports: { runWhenFree(auth: AuthContext, pipelineId: string): Promise<{ importId: string; queued: boolean }> };
  /** The connectors by broker kind (tests may replace them). */
  connectors?: Record<ListenerRow['kind'], Connect>;
}

/**
 * The listeners of this instance (docs/product.md §18.7): every published listener runs here too
 * (competing consumers), started at server start, stopped on un-publish, restarted on re-publish
 * (read every RECONCILE_MS, and at once after a change made here), stopped cleanly on shutdown.
 * Each reports its state for this host in `listener_states`.
 */
export function listenerRuntime(ctx: AppContext, deps: RuntimeDeps) {
  const repo = listenersRepo(ctx.db.kysely);
  const hostname = os.hostname();
  const workers = new Map<string, ListenerWorker>();
  const connectors = deps.connectors ?? CONNECTORS;
  let timer: NodeJS.Timeout | undefined;
  let pruned = 0;
  let reconciling: Promise<void> = Promise.resolve();
  let started = false;

  const store = (row: ListenerRow) => {
    const inFlight: InFlight = new Map();
    return async (batch: Delivery[]) => {
      const { uploadId, pipeline, auth } = await storeBatch({ ...deps, repo }, row, batch, inFlight);
      // The batch's upload stays switched on until a run takes it: this one, or the one queued behind
      // the import that runs now. A run that cannot be asked for now is asked at the next start.
      if (uploadId) {
        await deps.imports
          .runWhenFree(auth, pipeline._id)
          .catch((err: unknown) =>
            ctx.log.warn({ err, pipelineId: pipeline._id }, 'listener: the import of a batch did not start'),
          );
      }
    };
  };
  const startWorker = (row: ListenerRow) =>
    listenerWorker(row, {
      hostname,
      connectors,
      privateRanges: ctx.config.listeners.privateRanges,
      backoff: { minMs: ctx.config.listeners.backoffMinMs, maxMs: ctx.config.listeners.backoffMaxMs },
      password: deps.password,
      report: (state, lastError) => repo.report(row.id, hostname, state, lastError),
      store: store(row),
    });

  const reconcileOnce = async () => {
    if (!started) return;
    const rows = await repo.all();
    const wanted = new Map(rows.map((r) => [r.id, r]));
    for (const [id, worker] of workers) {
      const row = wanted.get(id);
      if (row && row.updated_at.getTime() === worker.row.updated_at.getTime()) continue;
      workers.delete(id);
      await worker.stop(row !== undefined);
    }
    for (const row of rows) if (!workers.has(row.id) && started) workers.set(row.id, startWorker(row));
    if (Date.now() - pruned > PRUNE_MS) {
      pruned = Date.now();
      await repo.forget(new Date(Date.now() - MESSAGE_IDS_KEPT_MS));
    }
  };
  const reconcile = () => {
    reconciling = reconciling
      .then(reconcileOnce)
      .catch((err: unknown) => ctx.log.warn({ err }, 'listeners: reading the published listeners failed'));
    return reconciling;
  };

  return {
    hostname,
    /** Starts every published listener here, and follows their changes. */
    async start(): Promise<void> {
      if (started) return;
      started = true;
      await reconcile();
      timer = setInterval(() => void reconcile(), RECONCILE_MS);
      timer.unref();
    },
    /** Reads the published listeners again now (after a publish or un-publish made here). */
    changed: () => {
      if (started) void reconcile();
    },
    /** Waits for the start, stop or restart of listeners asked so far. */
    settled: () => reconciling,
    /** Stops every listener here: each stores what it gathered, then closes its connection. */
    async stop(): Promise<void> {
      started = false;
      if (timer) clearInterval(timer);
      timer = undefined;
      await reconciling;
      const all = [...workers.values()];
      workers.clear();
      await Promise.all(all.map((w) => w.stop()));
    },
  };
}

export type ListenerRuntime = ReturnType<typeof listenerRuntime>;
