import { afterEach, describe, expect, it } from 'vitest';
import { IsolatePool } from './isolate-pool.ts';

let pool: IsolatePool | undefined;
afterEach(() => pool?.close());

/** Runs code in a fresh context of a leased isolate and hands the isolate back as reusable; answers the isolate. */
async function runAndRelease(p: IsolatePool, code: string) {
  const lease = await p.acquire(256);
  const context = await p.context(lease, 5000);
  await context.eval(code, { timeout: 5000 });
  context.release();
  p.release(lease, true);
  return lease.isolate;
}

describe('isolate pool', () => {
  it('keeps an isolate warm after a small run, and disposes one whose heap a run grew large', async () => {
    pool = new IsolatePool({ size: 1, queueLimit: 1 });
    const first = await runAndRelease(pool, 'let n = 0; for (let i = 0; i < 1000; i++) n += i;');
    const again = await runAndRelease(pool, 'globalThis.rows = Array.from({ length: 2e6 }, (_, i) => ({ i, s: "row" + i })); 1;');
    expect(again).toBe(first);
    expect(first.isDisposed).toBe(true);
    const fresh = await runAndRelease(pool, '1;');
    expect(fresh).not.toBe(first);
    expect(fresh.isDisposed).toBe(false);
  });
});
