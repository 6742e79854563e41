import type { Delivery } from './listener-batches.ts';

/** Bytes of messages one batch gathers at most (its upload stays well within the 20 MiB of a file). */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;

/**
 * Gathers a listener's deliveries into batches: a batch is stored when it holds `size` messages
 * (or MAX_BATCH_BYTES), or `waitMs` after its first message came. Batches are stored one after
 * the other, in the order they were gathered. Once closing, a delivery is handed back to the
 * broker (released) rather than gathered.
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
  let chain: Promise<void> = Promise.resolve();
  let closing = false;

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    bytes = 0;
    if (batch.length > 0) chain = chain.then(() => options.store(batch)).catch(options.failed);
    return chain;
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
    /** Drops what is gathered, unacknowledged (the connection is gone: the broker delivers it again). */
    drop(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = [];
      bytes = 0;
    },
  };
}

export type Batcher = ReturnType<typeof batcher>;
