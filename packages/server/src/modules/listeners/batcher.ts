import type { Delivery } from './listener-batches.ts';

/** Bytes of messages one batch gathers at most (its upload stays well within the 20 MiB of a file). */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/** Batches being stored at once: one batch's check in a parse worker overlaps the other's writes. */
const STORING_AT_ONCE = 2;

/**
 * Gathers a listener's deliveries into batches: a batch is stored when it holds `size` messages
 * (or MAX_BATCH_BYTES), or `waitMs` after its first message came. At most STORING_AT_ONCE batches
 * are stored at a time, started in the order they were gathered. Once closing, a delivery is handed
 * back to the broker (released) rather than gathered.
 */
export function batcher(options: {
  size: number;
  waitMs: number;
  store: (batch: Delivery[]) => Promise<void>;
  failed: (error: unknown) => void;
}) {
  let pending: Delivery[] = [];
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const waiting: Delivery[][] = [];
  const storing = new Set<Promise<void>>();
  let closing = false;

  const pump = () => {
    while (storing.size < STORING_AT_ONCE && waiting.length > 0) {
      const batch = waiting.shift() as Delivery[];
      const stored: Promise<void> = options
        .store(batch)
        .catch(options.failed)
        .finally(() => {
          storing.delete(stored);
          pump();
        });
      storing.add(stored);
    }
  };
  /** Waits until every batch handed over so far is stored (or failed). */
  const settled = async (): Promise<void> => {
    while (storing.size > 0 || waiting.length > 0) await Promise.all([...storing]);
  };
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length > 0) waiting.push(pending);
    pending = [];
    bytes = 0;
    pump();
    return settled();
  };

  return {
    add(delivery: Delivery): void {
      if (closing) {
        delivery.release?.();
        return;
      }
      pending.push(delivery);
      bytes += delivery.body.length;
      if (pending.length >= options.size || bytes >= MAX_BATCH_BYTES) void flush();
      else timer ??= setTimeout(() => void flush(), options.waitMs);
    },
    /** Stores what is gathered, and waits for every batch to be stored (or to fail). */
    flush,
    /** Takes no more deliveries; stores those gathered. */
    async close(): Promise<void> {
      closing = true;
      await flush();
    },
    /** Waits for the batches handed to `store` so far. */
    settled,
    /** Drops what is gathered and not yet being stored, unacknowledged (the connection is gone: the broker delivers it again). */
    drop(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = [];
      bytes = 0;
      waiting.length = 0;
    },
  };
}

export type Batcher = ReturnType<typeof batcher>;
