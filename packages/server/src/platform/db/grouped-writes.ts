/** How many items one shared write takes at most: by count, and by weight (bytes, say). */
export interface GroupLimits<T> {
  maxItems: number;
  maxWeight: number;
  weigh(item: T): number;
}

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/** The items waiting first, as many as the limits let one write take (always at least one). */
function firstGroup<T, R>(queue: Waiting<T, R>[], limits: GroupLimits<T>): Waiting<T, R>[] {
  let count = 0;
  let weight = 0;
  for (const waiting of queue) {
    const next = weight + limits.weigh(waiting.item);
    if (count > 0 && (count >= limits.maxItems || next > limits.maxWeight)) break;
    count += 1;
    weight = next;
  }
  return queue.splice(0, count);
}

/**
 * Writes items as they come, one write at a time: an item that comes while nothing is written is
 * written at once, alone; those that come while a write runs wait for it and are written together
 * by the next one (a group commit: one transaction, one flush to disk, a few statements for all of
 * them). `writeAll` answers a result per item, in order. When a write of several fails, each of its
 * items is written again alone, so that only the one at fault fails.
 */
export function groupedWrites<T, R>(
  writeAll: (items: readonly T[]) => Promise<R[]>,
  limits: GroupLimits<T>,
): (item: T) => Promise<R> {
  const queue: Waiting<T, R>[] = [];
  let writing = false;
  const settle = async (group: Waiting<T, R>[]): Promise<void> => {
    try {
      const results = await writeAll(group.map((w) => w.item));
      for (const [i, w] of group.entries()) w.resolve(results[i] as R);
    } catch (error) {
      if (group.length === 1) group[0]?.reject(error);
      else for (const w of group) await settle([w]);
    }
  };
  const drain = async () => {
    writing = true;
    try {
      while (queue.length > 0) await settle(firstGroup(queue, limits));
    } finally {
      writing = false;
    }
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!writing) void drain();
    });
}
