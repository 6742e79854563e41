import { errorMessage } from '../../platform/error-message.ts';
import { type Batcher, batcher } from './batcher.ts';
import { checkBrokerUrl } from './broker-address.ts';
import type { Connect, Consumer } from './brokers/consumer.ts';
import type { Delivery } from './listener-batches.ts';
import type { ListenerRow } from './listeners.repo.ts';

type ListenerState = 'connecting' | 'connected' | 'error' | 'stopped';

/** What one listener's worker on this instance uses. */
interface WorkerDeps {
  hostname: string;
  connectors: Record<ListenerRow['kind'], Connect>;
  privateRanges: readonly string[];
  backoff: { minMs: number; maxMs: number };
  password(row: ListenerRow): string | undefined;
  report(state: ListenerState, lastError: string | null): Promise<void>;
  /** Stores a batch and acknowledges its messages; throws when it could not (they stay with the broker). */
  store(batch: Delivery[]): Promise<void>;
}

/** The wait before the n-th attempt in a row (from 0): doubling from the least to the most, with a little jitter. */
export function backoffMs(attempt: number, bounds: { minMs: number; maxMs: number }): number {
  const base = Math.min(bounds.maxMs, bounds.minMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * One published listener on this instance: connects, consumes into batches, reports its state
 * (connecting, connected, error with the last error, stopped) and, when the connection fails or
 * ends, or a batch cannot be stored, starts again after a back-off. `stop` stores the batch
 * being gathered, then closes the connection.
 */
export function listenerWorker(row: ListenerRow, deps: WorkerDeps) {
  let stopped = false;
  let wake: () => void = () => undefined;
  let current: { consumer: Consumer | undefined; batches: Batcher; failed: (e: Error) => void } | undefined;
  let lastError: string | null = null;
  // A state that cannot be recorded (the database is away) does not stop the listener.
  const report = (state: ListenerState, error: string | null) => deps.report(state, error).catch(() => undefined);

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopped) return resolve();
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** One connection, until it ends (answers why) or the worker stops. */
  const connectOnce = async (): Promise<Error | undefined> => {
    let fail: (e: Error) => void = () => undefined;
    const failure = new Promise<Error>((resolve) => {
      fail = resolve;
    });
    const batches = batcher({
      size: row.batch_size,
      waitMs: row.batch_wait_ms,
      store: deps.store,
      failed: (error) => fail(error instanceof Error ? error : new Error(String(error))),
    });
    current = { consumer: undefined, batches, failed: fail };
    const url = await checkBrokerUrl(row.kind, row.url, deps.privateRanges);
    const consumer = await deps.connectors[row.kind](
      {
        listenerId: row.id,
        url,
        queue: row.queue,
        jetStream: row.jet_stream,
        username: row.username || undefined,
        password: deps.password(row),
        hostname: deps.hostname,
        // One batch gathering while two are stored.
        prefetch: Math.min(30_000, row.batch_size * 3),
      },
      (delivery) => batches.add(delivery),
    );
    current.consumer = consumer;
    if (stopped) {
      await consumer.close();
      return undefined;
    }
    await report('connected', lastError);
    const why = await Promise.race([consumer.ended, failure]);
    batches.drop();
    await consumer.close();
    // The batches being stored finish (their acks are lost with the connection) before the next
    // connection's redeliveries of them are looked at: their ids are recorded by then.
    await batches.settled();
    return why;
  };

  const run = async () => {
    for (let attempt = 0; !stopped; ) {
      await report('connecting', lastError);
      const began = Date.now();
      try {
        const why = await connectOnce();
        if (stopped) break;
        lastError = errorMessage(why ?? new Error('The connection ended.'));
      } catch (error) {
        if (stopped) break;
        lastError = errorMessage(error);
      }
      // A connection that lasted starts the back-off over.
      attempt = Date.now() - began > deps.backoff.maxMs ? 1 : attempt + 1;
      await report('error', lastError);
      await pause(backoffMs(attempt - 1, deps.backoff));
    }
  };
  const running = run().catch(() => undefined);

  return {
    row,
    /** Stores what is gathered, closes the connection and reports the listener stopped. */
    async stop(reportStop = true): Promise<void> {
      stopped = true;
      wake();
      const now = current;
      if (now) {
        await now.batches.close();
        await now.consumer?.close();
        now.failed(new Error('stopped'));
      }
      await running;
      if (reportStop) await report('stopped', lastError);
    },
  };
}

export type ListenerWorker = ReturnType<typeof listenerWorker>;
