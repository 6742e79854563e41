import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';

/** A load that counts its calls and answers a new object each time. */
function counted() {
  let calls = 0;
  const load = async () => ({ n: ++calls });
  return { load, calls: () => calls };
}

describe('ReadCache', () => {
  it('answers a kept read until its time is up, then reads again', async () => {
    const cache = new ReadCache<string, { n: number }>(1000);
    const { load, calls } = counted();
    const first = await cache.get('a', load, 0);
    expect(await cache.get('a', load, 999)).toBe(first);
    expect(calls()).toBe(1);
    expect(await cache.get('a', load, 1000)).toEqual({ n: 2 });
  });

  it('shares a read under way between the callers who ask meanwhile', async () => {
    const cache = new ReadCache<string, number>(1000);
    let release: (v: number) => void = () => {};
    let calls = 0;
    const load = () => {
      calls += 1;
      return new Promise<number>((resolve) => {
        release = resolve;
      });
    };
    const both = Promise.all([cache.get('a', load), cache.get('a', load)]);
    release(7);
    expect(await both).toEqual([7, 7]);
    expect(calls).toBe(1);
  });

  it('reads again after a forget, even while the read before it is still under way', async () => {
    const cache = new ReadCache<string, string>(60_000);
    let release: (v: string) => void = () => {};
    const slow = () =>
      new Promise<string>((resolve) => {
        release = resolve;
      });
    const before = cache.get('a', slow);
    cache.forget('a');
    const after = cache.get('a', async () => 'new');
    release('old');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(await cache.get('a', async () => 'newer')).toBe('new');
  });

  it('forgets one key or all, and keeps nothing that failed', async () => {
    const cache = new ReadCache<string, number>(60_000);
    await cache.get('a', async () => 1);
    await cache.get('b', async () => 2);
    cache.forget('a');
    expect(await cache.get('a', async () => 3)).toBe(3);
    expect(await cache.get('b', async () => 4)).toBe(2);
    cache.clear();
    expect(await cache.get('b', async () => 5)).toBe(5);
    await expect(cache.get('c', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('c', async () => 6)).toBe(6);
  });

  it('keeps nothing with a time of 0', async () => {
    const cache = new ReadCache<string, { n: number }>(0);
    const { load, calls } = counted();
    await cache.get('a', load);
    await cache.get('a', load);
    expect(calls()).toBe(2);
  });
});
