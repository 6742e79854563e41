import { afterEach, describe, expect, test } from 'vitest';
import { component, MemorySource, memoryRuntime, run, sdkFunction } from '../../test/test-runtime.ts';
import { GATE_MESSAGES } from './caller-gate.ts';
import { RunFailure } from './run-failure.ts';
import type { RuntimeService } from './runtime.service.ts';

// Test runs from the editors (hostile or just slow) must never hold up an import's run.

const source = new MemorySource();
const spin = component({ name: 'Spin', kind: 'instruction', outputs: ['out'], jsCode: 'while (true) {}' });
const healthy = component({
  name: 'Healthy',
  kind: 'function',
  inputs: ['n'],
  outputs: ['n'],
  jsCode: 'return ctx.input.n + 1;',
});
const spinFn = sdkFunction('spinForever', '() => { while (true) {} }');
source.add(spin, healthy);

let rt: RuntimeService | undefined;
afterEach(() => rt?.close());

/** What a run ended with: its failure, or 'ok'. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok' as const,
    (e: unknown) => e,
  );

const reasonOf = (e: unknown) => (e instanceof RunFailure ? e.reason : String(e));

describe('test runs and imports', () => {
  test("a manager's endless test runs leave imports their isolates, and the runs past the caller's line are refused", async () => {
    rt = memoryRuntime(source, { timeoutMs: 60_000, poolSize: 1, testPoolSize: 2, testRunsPerUser: 1, testQueuePerUser: 1 });
    const tests = Array.from({ length: 4 }, () => outcome(rt?.testComponent('manager', spin._id, {}, {}) ?? Promise.resolve()));
    await new Promise((r) => setTimeout(r, 300));
    expect(rt.testRuns('manager')).toEqual({ running: 1, waiting: 1 });

    const started = Date.now();
    expect((await run(rt, healthy, { n: 1 })).output).toEqual({ n: 2 });
    expect(Date.now() - started).toBeLessThan(2_000);

    // Another user still gets the second test isolate.
    const other = component({ name: 'Other', kind: 'function', inputs: ['n'], outputs: ['n'], jsCode: 'return ctx.input.n;' });
    source.add(other);
    expect((await rt.testComponent('someone else', other._id, { n: 3 }, {})).output).toEqual({ n: 3 });

    expect(rt.stopTest('manager', spin._id)).toBe(true);
    const ended = await Promise.all(tests);
    expect(ended.map(reasonOf).sort()).toEqual(['busy', 'busy', 'cancelled', 'cancelled']);
    const refused = ended.find((e) => reasonOf(e) === 'busy');
    expect(refused instanceof RunFailure && refused.message).toBe(`Execute error : ${GATE_MESSAGES.busy}`);
    expect(refused instanceof RunFailure && refused.status).toBe(429);
    expect(rt.testRuns('manager')).toEqual({ running: 0, waiting: 0 });
  });

  test('SDK test runs count in the same places and leave imports alone', async () => {
    rt = memoryRuntime(source, { timeoutMs: 1_500, poolSize: 1, testPoolSize: 1, testRunsPerUser: 1, testQueuePerUser: 0 });
    const first = outcome(rt.testSdkFunction('manager', spinFn, []));
    await new Promise((r) => setTimeout(r, 200));
    expect(reasonOf(await outcome(rt.testSdkFunction('manager', spinFn, [])))).toBe('busy');
    expect((await run(rt, healthy, { n: 4 })).output).toEqual({ n: 5 });
    expect(reasonOf(await first)).toBe('timeout');
  });
});
