import { afterEach, describe, expect, it } from 'vitest';
import { loopLoad } from './loop-load.ts';

const made: Array<ReturnType<typeof loopLoad>> = [];
afterEach(() => {
  for (const load of made.splice(0)) load.stop();
});

/** Keeps the loop busy for `ms`, letting it turn every 5 ms. */
async function busyFor(ms: number): Promise<void> {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const slice = performance.now() + 5;
    while (performance.now() < slice) {
      // work
    }
    await new Promise((r) => setImmediate(r));
  }
}

const idleFor = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the event loop’s recent load', () => {
  it('is high while the loop works and falls once it has waited a window long', async () => {
    const load = loopLoad(200);
    made.push(load);
    await busyFor(300);
    expect(load.now()).toBeGreaterThan(0.7);
    await idleFor(400);
    expect(load.now()).toBeLessThan(0.3);
  });

  it('looks back about one window, not to its start', async () => {
    const load = loopLoad(200);
    made.push(load);
    await idleFor(400);
    await busyFor(300);
    expect(load.now()).toBeGreaterThan(0.6);
  });
});
