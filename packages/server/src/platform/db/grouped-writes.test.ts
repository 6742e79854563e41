import { describe, expect, it } from 'vitest';
import { groupedWrites } from './grouped-writes.ts';

/** A write of items that records each group it was given and answers once `release` is called. */
function recordedWrites(fails: (item: string) => boolean = () => false) {
  const groups: string[][] = [];
  const pending: Array<() => void> = [];
  const writeAll = (items: readonly string[]) => {
    groups.push([...items]);
    return new Promise<string[]>((resolve, reject) => {
      pending.push(() =>
        items.some(fails) ? reject(new Error(`refused ${items.join(',')}`)) : resolve(items.map((i) => i.toUpperCase())),
      );
    });
  };
  /** Ends the writes started so far, until none is left. */
  const releaseAll = async () => {
    for (let rounds = 0; rounds < 100; rounds++) {
      await new Promise((r) => setTimeout(r, 0));
      const next = pending.shift();
      if (!next) return;
      next();
    }
  };
  return { groups, writeAll, releaseAll };
}

const byCount = { maxItems: 3, maxWeight: 1000, weigh: (item: string) => item.length };

describe('groupedWrites', () => {
  it('writes an item alone when nothing is being written, and those that came meanwhile together next', async () => {
    const w = recordedWrites();
    const write = groupedWrites(w.writeAll, byCount);
    const answers = ['a', 'b', 'c', 'd'].map((item) => write(item));
    await w.releaseAll();
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C', 'D']);
    expect(w.groups).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('takes at most the limits: items by count, and by weight, a heavy item alone', async () => {
    const w = recordedWrites();
    const write = groupedWrites(w.writeAll, { maxItems: 2, maxWeight: 5, weigh: (item: string) => item.length });
    const answers = ['a', 'b', 'c', 'd', 'eeeeeeee', 'ff', 'ggg', 'h'].map((item) => write(item));
    await w.releaseAll();
    await Promise.all(answers);
    expect(w.groups).toEqual([['a'], ['b', 'c'], ['d'], ['eeeeeeee'], ['ff', 'ggg'], ['h']]);
  });

  it('writes each item of a failed group alone: only the one at fault fails', async () => {
    const w = recordedWrites((item) => item === 'bad');
    const write = groupedWrites(w.writeAll, byCount);
    const answers = ['a', 'b', 'bad', 'c'].map((item) => write(item).catch((e: Error) => e.message));
    await w.releaseAll();
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'refused bad', 'C']);
    expect(w.groups).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('goes on writing after a failure, and after being idle', async () => {
    const w = recordedWrites((item) => item === 'bad');
    const write = groupedWrites(w.writeAll, byCount);
    const first = write('bad').catch(() => 'failed');
    await w.releaseAll();
    expect(await first).toBe('failed');
    const second = write('ok');
    await w.releaseAll();
    expect(await second).toBe('OK');
    expect(w.groups).toEqual([['bad'], ['ok']]);
  });
});
