import os from 'node:os';
import type { CreateImportBody, JobCreated } from '@gdb/shared/imports/import.schemas';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { connectAmqp } from './brokers/amqp.ts';
import type { Connect } from './brokers/consumer.ts';
import { connectMqtt } from './brokers/mqtt.ts';
import { connectNats } from './brokers/nats.ts';
import { type BatchDeps, type Delivery, type InFlight, storeBatch } from './listener-batches.ts';
import { listenerSource } from './listener-source.ts';
import { backoffMs, type ListenerWorker, listenerWorker } from './listener-worker.ts';
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
  imports: { create(auth: AuthContext, body: CreateImportBody): Promise<JobCreated> };
  /** How many uploads a run of the pipeline would take from its listener source now. */
  waitingUploads(pipeline: PipelineView, dataSubKind: string): Promise<number>;
  /** The connectors by broker kind (tests may replace them). */
  connectors?: Record<ListenerRow['kind'], Connect>;
}

/**
 * Runs the pipeline of a listener after a batch was stored. While an import of it runs or waits
 * (409), the batch's upload stays, switched on, for the next run: that run is asked again after
 * a back-off, and only while some upload still waits for it.
 */
function runRequests(ctx: AppContext, deps: RuntimeDeps) {
  const retrying = new Map<string, NodeJS.Timeout>();
  const bounds = { minMs: ctx.config.listeners.backoffMinMs, maxMs: ctx.config.listeners.backoffMaxMs };
  const attempt = async (pipeline: PipelineView, auth: AuthContext, tries: number): Promise<void> => {
    retrying.delete(pipeline._id);
    const source = listenerSource(pipeline);
    if (tries > 0 && (!source || (await deps.waitingUploads(pipeline, source.dataSubKind)) === 0)) return;
    try {
      await deps.imports.create(auth, { pipelineId: pipeline._id, kind: 'immediate', restartOnError: false, listPipelines: [] });
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 409) {
        ctx.log.warn({ err: error, pipelineId: pipeline._id }, 'listener: the import of a batch did not start');
      }
      if (retrying.has(pipeline._id)) return;
      const timer = setTimeout(() => void attempt(pipeline, auth, tries + 1).catch(() => undefined), backoffMs(tries, bounds));
      timer.unref();
      retrying.set(pipeline._id, timer);
    }
  };
  return {
    request: (pipeline: PipelineView, auth: AuthContext) => {
      if (!retrying.has(pipeline._id)) void attempt(pipeline, auth, 0).catch(() => undefined);
    },
    stop: () => {
      for (const timer of retrying.values()) clearTimeout(timer);
      retrying.clear();
    },
  };
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
  const runs = runRequests(ctx, deps);
  const connectors = deps.connectors ?? CONNECTORS;
  let timer: NodeJS.Timeout | undefined;
  let pruned = 0;
  let reconciling: Promise<void> = Promise.resolve();
  let started = false;

  const store = (row: ListenerRow) => {
    const inFlight: InFlight = new Map();
    return async (batch: Delivery[]) => {
      const { uploadId, pipeline, auth } = await storeBatch({ ...deps, repo }, row, batch, inFlight);
      if (uploadId) runs.request(pipeline, auth);
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
      runs.stop();
      const all = [...workers.values()];
      workers.clear();
      await Promise.all(all.map((w) => w.stop()));
    },
  };
}

export type ListenerRuntime = ReturnType<typeof listenerRuntime>;
