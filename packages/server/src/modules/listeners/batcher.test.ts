import { describe, expect, it } from 'vitest';
import { batcher } from './batcher.ts';
import { rowsOf, storeBatch } from './listener-batches.ts';
import { backoffMs } from './listener-worker.ts';

const delivery = (n: number, released: number[] = []) => ({
  id: `m${n}`,
  body: Buffer.from(`{"n":${n}}`),
  ack: () => undefined,
  release: () => released.push(n),
});

describe('batcher', () => {
  it('stores a batch when it is full, and what waited once the wait is over', async () => {
    const stored: string[][] = [];
    const batches = batcher({
      size: 3,
      waitMs: 30,
      store: async (batch) => {
        await new Promise((r) => setTimeout(r, 5));
        stored.push(batch.map((d) => d.id ?? ''));
      },
      failed: () => undefined,
    });
    for (let n = 0; n < 4; n += 1) batches.add(delivery(n));
    await batches.flush();
    expect(stored).toHaveLength(2);
    expect(stored).toEqual(expect.arrayContaining([['m0', 'm1', 'm2'], ['m3']]));
    batches.add(delivery(4));
    await new Promise((r) => setTimeout(r, 60));
    expect(stored[2]).toEqual(['m4']);
  });

  it('stores what it gathered on close, and hands back what comes after', async () => {
    const stored: number[] = [];
    const released: number[] = [];
    const batches = batcher({
      size: 10,
      waitMs: 10_000,
      store: async (batch) => {
        stored.push(batch.length);
      },
      failed: () => undefined,
    });
    batches.add(delivery(1, released));
    await batches.close();
    batches.add(delivery(2, released));
    expect([stored, released]).toEqual([[1], [2]]);
  });

  it('reports a batch that could not be stored, and goes on with the next', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const batches = batcher({
      size: 1,
      waitMs: 10,
      store: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database away');
      },
      failed: (error) => errors.push(error),
    });
    batches.add(delivery(1));
    batches.add(delivery(2));
    await batches.flush();
    expect([calls, errors.map(String)]).toEqual([2, ['Error: database away']]);
  });

  it('stores two batches at once at most', async () => {
    let now = 0;
    let most = 0;
    const batches = batcher({
      size: 1,
      waitMs: 10,
      store: async () => {
        now += 1;
        most = Math.max(most, now);
        await new Promise((r) => setTimeout(r, 10));
        now -= 1;
      },
      failed: () => undefined,
    });
    for (let n = 0; n < 6; n += 1) batches.add(delivery(n));
    await batches.settled();
    expect([most, now]).toEqual([2, 0]);
  });
});

describe('a batch and the ids of the batches being stored', () => {
  const deps = (stored: string[][], seen = new Set<string>()) => ({
    repo: {
      seen: async (_: string, ids: readonly string[]) => new Set(ids.filter((id) => seen.has(id))),
      remember: async (_: string, ids: readonly string[]) => {
        for (const id of ids) seen.add(id);
      },
    } as never,
    pipelines: {
      stored: async () => ({ _id: 'p', name: 'p', dataSources: [{ dataSubKind: 'prices', connectorType: 'listener' }] }) as never,
    },
    runner: async () => ({ userId: 'u', sessionId: 's', userName: 'u', roles: ['super-admin' as const] }),
    uploads: {
      receiveBatch: async (_a: unknown, _p: unknown, batch: { bytes: Uint8Array }) => {
        await new Promise((r) => setTimeout(r, 10));
        stored.push((JSON.parse(Buffer.from(batch.bytes).toString()) as { n: number }[]).map((r) => `m${r.n}`));
        return { uploadId: 'u1', valid: true, problemRows: null };
      },
    },
  });
  const acked = (acks: string[], n: number) => ({ id: `m${n}`, body: Buffer.from(`{"n":${n}}`), ack: () => acks.push(`m${n}`) });

  it('stores a message once when its id comes again while its first batch is stored, acknowledging both after', async () => {
    const stored: string[][] = [];
    const acks: string[] = [];
    const inFlight = new Map();
    const d = deps(stored);
    const first = storeBatch(d, { id: 'l' } as never, [acked(acks, 1), acked(acks, 2), acked(acks, 1)], inFlight);
    const second = storeBatch(d, { id: 'l' } as never, [acked(acks, 2), acked(acks, 3)], inFlight);
    await Promise.all([first, second]);
    expect(stored.flat().sort()).toEqual(['m1', 'm2', 'm3']);
    expect(acks.sort()).toEqual(['m1', 'm1', 'm2', 'm2', 'm3']);
    expect(inFlight.size).toBe(0);
    await storeBatch(d, { id: 'l' } as never, [acked(acks, 1)], inFlight);
    expect(stored.flat()).toHaveLength(3);
  });

  it('leaves the messages waiting for a batch that fails to the broker', async () => {
    const acks: string[] = [];
    const inFlight = new Map();
    const d = deps([]);
    d.uploads.receiveBatch = async () => {
      throw new Error('database away');
    };
    const first = storeBatch(d, { id: 'l' } as never, [acked(acks, 1)], inFlight);
    const second = storeBatch(d, { id: 'l' } as never, [acked(acks, 1)], inFlight);
    await expect(first).rejects.toThrow('database away');
    await second;
    expect([acks, inFlight.size]).toEqual([[], 0]);
  });
});

describe('the rows of a message', () => {
  it('takes one JSON object or a non-empty array of objects; anything else is refused', () => {
    const rows = (text: string) => rowsOf(Buffer.from(text));
    expect(rows('{"a":1}')).toEqual([{ a: 1 }]);
    expect(rows('[{"a":1},{"a":2}]')).toEqual([{ a: 1 }, { a: 2 }]);
    for (const text of ['not json', '[]', '[1]', '"x"', '3', 'null', '[{"a":1},2]', '']) expect(rows(text), text).toBeNull();
  });
});

describe('back-off', () => {
  it('doubles from the least to the most wait, within a fifth either side', () => {
    const bounds = { minMs: 100, maxMs: 1000 };
    for (const [attempt, base] of [
      [0, 100],
      [1, 200],
      [3, 800],
      [4, 1000],
      [40, 1000],
    ] as const) {
      const ms = backoffMs(attempt, bounds);
      expect(ms, String(attempt)).toBeGreaterThanOrEqual(base * 0.8);
      expect(ms, String(attempt)).toBeLessThanOrEqual(base * 1.2);
    }
  });
});
