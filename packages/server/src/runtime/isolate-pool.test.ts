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

  it('asks for the sandbox threads at the first isolate asked for, and lends none before they are made', async () => {
    let made!: () => void;
    const threadsMade = new Promise<void>((resolve) => {
      made = resolve;
    });
    let asked = 0;
    pool = new IsolatePool({
      size: 1,
      queueLimit: 1,
      threadsMade: () => {
        asked++;
        return threadsMade;
      },
    });
    expect(asked).toBe(0);
    let lent = false;
    const lease = pool.acquire(64).then((l) => {
      lent = true;
      return l;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(lent).toBe(false);
    made();
    pool.release(await lease, true);
    expect(lent).toBe(true);
    expect(pool.stats()).toMatchObject({ total: 1, idle: 1 });
    // Asked for once, at the first isolate asked for.
    pool.release(await pool.acquire(64), true);
    expect(asked).toBe(1);
  });
});
