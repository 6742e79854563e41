import { afterAll, describe, expect, test } from 'vitest';
import { component, link, MemorySource, memoryRuntime, run, schema, sdkFunction } from '../../test/test-runtime.ts';
import { RunFailure } from './run-failure.ts';

// The hostile corpus of docs/security.md: each case must end with a clear error for the caller
// and a runtime that still runs the next component normally.

const source = new MemorySource();
const rt = memoryRuntime(source, { timeoutMs: 1000, memoryMiB: 64, maxOutputChars: 1_000_000, maxLogEntries: 100, poolSize: 2 });
afterAll(() => rt.close());

const healthy = component({
  name: 'Healthy',
  kind: 'function',
  inputs: ['n'],
  outputs: ['n'],
  jsCode: 'return ctx.input.n + 1;',
});
source.add(healthy);

function code(name: string, jsCode: string, extra: Partial<Parameters<typeof component>[0]> = {}) {
  const c = component({ name, kind: 'instruction', outputs: ['out'], jsCode, ...extra });
  source.add(c);
  return c;
}

// Memory runs out in well under a second on a quiet machine, in seconds on a loaded one: runs that
// must end at the memory limit get a time limit that cannot come first.
const roomy = memoryRuntime(source, {
  timeoutMs: 30_000,
  memoryMiB: 64,
  maxOutputChars: 1_000_000,
  maxLogEntries: 100,
  poolSize: 1,
});
afterAll(() => roomy.close());

async function failure(c: ReturnType<typeof code>, payload: unknown = {}, runtime = rt): Promise<RunFailure> {
  const error = await run(runtime, c, payload).catch((e: unknown) => e);
  if (!(error instanceof RunFailure)) throw new Error(`expected a RunFailure, got ${String(error)}`);
  return error;
}

async function stillHealthy(): Promise<void> {
  expect((await run(rt, healthy, { n: 1 })).output).toEqual({ n: 2 });
  expect(rt.stats().total).toBeLessThanOrEqual(2);
}

describe('limits', () => {
  test('an infinite loop is stopped at the time limit and its isolate is not reused', async () => {
    await stillHealthy();
    const started = Date.now();
    const error = await failure(code('Spin', 'while (true) {}'));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error.reason).toBe('timeout');
    expect(error.message).toBe('The run took longer than its limit of 1 s and was stopped.');
    // The isolate that ran it was disposed rather than handed back.
    expect(rt.stats().idle).toBe(0);
    await stillHealthy();
  });

  test('an endless chain of promises is stopped too', async () => {
    const error = await failure(code('Microtasks', 'for (;;) await null;'));
    expect(error.reason).toBe('timeout');
    await stillHealthy();
  });

  test('work left running after the code returns does not escape the time limit', async () => {
    const error = await failure(code('Dangling', '(async () => { for (;;) await null; })(); ctx.output.out = 1;'));
    expect(error.reason).toBe('timeout');
    await stillHealthy();
  });

  test('a blocking wait on shared memory is stopped at the time limit', async () => {
    const error = await failure(code('Wait', 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);'));
    expect(error.reason).toBe('timeout');
    await stillHealthy();
  });

  test('a memory bomb is stopped at the memory limit', async () => {
    const error = await failure(
      code('Bomb', 'const keep = []; for (;;) keep.push(new Array(1e5).fill(Math.random()));'),
      {},
      roomy,
    );
    expect(error.reason).toBe('memory');
    expect(error.message).toBe('The run used more than its limit of 64 MiB of memory and was stopped.');
    await stillHealthy();
  });

  test('large buffers count against the limit; WebAssembly memories are not available', async () => {
    const buffers = await failure(
      code('Buffers', 'const keep = []; for (;;) keep.push(new Uint8Array(8e6).fill(1));'),
      {},
      roomy,
    );
    expect(buffers.message).toMatch(/Array buffer allocation failed|more than its limit of 64 MiB/);
    const wasm = await run(rt, code('Wasm', 'ctx.output.out = typeof WebAssembly;'), {});
    expect(wasm.output).toEqual({ out: 'undefined' });
    await stillHealthy();
  });

  test('deep recursion fails with the component named', async () => {
    const error = await failure(code('Recurse', 'function f(n) { return f(n + 1) + 1; }\nf(0);'));
    expect(error.reason).toBe('code');
    expect(error.message).toMatch(/^Component "Recurse" v1: RangeError: Maximum call stack size exceeded/);
    await stillHealthy();
  });

  test('a huge output is refused at the output limit', async () => {
    const error = await failure(code('Huge', "ctx.output.out = 'x'.repeat(2000000);"));
    expect(error.reason).toBe('output');
    expect(error.message).toBe('The output is larger than 1000000 characters of JSON.');
    await stillHealthy();
  });

  test('an output whose getter never returns is stopped at the time limit', async () => {
    const error = await failure(
      code('Getter', "Object.defineProperty(ctx.output, 'out', { enumerable: true, get() { for (;;) {} } });"),
    );
    expect(error.reason).toBe('timeout');
    await stillHealthy();
  });

  test('logs are bounded in count', async () => {
    const r = await run(rt, code('Chatty', 'for (let i = 0; i < 100000; i++) ctx.log(i);'), {});
    expect(r.logs).toHaveLength(101);
    expect(r.logs[100]?.message).toBe(
      '99900 more log entries were dropped (at most 100 entries and 1048576 characters per run).',
    );
  });

  test('a long log message is cut', async () => {
    const r = await run(rt, code('Long', "ctx.log('y'.repeat(50000));"), {});
    expect(r.logs[0]?.message.length).toBe(10_001);
  });

  test('SDK code that never returns while the program loads is stopped too', async () => {
    const fn = sdkFunction('stuck', '(function () { for (;;) {} })()');
    source.add(fn);
    const error = await failure(code('UsesStuck', 'ctx.output.out = 1;', { sdk: [fn] }));
    expect(error.reason).toBe('timeout');
    await stillHealthy();
  });
});

describe('escapes', () => {
  test('a component calls the SDK functions it lists but cannot read their source', async () => {
    const secret = sdkFunction('secret', 'async function (x) { const key = "s3cr3t-key"; return x + key.length; }');
    source.add(secret);
    const reader = code(
      'ReadsSdk',
      [
        'const f = sdk.secret;',
        'const texts = [String(f), f.toString(), Function.prototype.toString.call(f), `${f}`];',
        'ctx.output.out = { texts, name: f.name, called: await f(1) };',
      ].join('\n'),
      { sdk: [secret] },
    );
    const out = (await run(rt, reader, {})).output.out;
    expect(JSON.stringify(out)).not.toContain('s3cr3t-key');
    expect(out.texts).toEqual(Array(4).fill('function () { [native code] }'));
    expect(out).toMatchObject({ name: 'secret', called: 11 });
  });

  test("a component cannot reach the program's other components, data model validators or library by name", async () => {
    const model = schema('Guarded', { type: 'string', enum: ['MODEL-SECRET', 'hello'] });
    source.add(model);
    const victim = code('Victim', 'ctx.output.out = ctx.input.in + "VICTIM-SECRET".length;', {
      inputs: [{ name: 'in', schema: model._id }],
    });
    const thief = code(
      'Thief',
      [
        'const names = { C0: typeof C0, C1: typeof C1, C2: typeof C2, models: typeof models, __require: typeof __require,',
        '  __gdb: typeof __gdb, __code: typeof __code, __lines: typeof __lines, sdk_0: typeof sdk_0 };',
        'const globals = Object.getOwnPropertyNames(globalThis).map((k) => { try { return String(globalThis[k]); } catch { return ""; } });',
        'ctx.output.out = { names, globals, got: ctx.input.in };',
      ].join('\n'),
      { inputs: ['in'] },
    );
    const flow = component({
      name: 'Spy',
      kind: 'workflow',
      inputs: ['in'],
      outputs: ['out'],
      instances: [
        ['victim', victim],
        ['thief', thief],
      ],
      links: [link('.in -> victim.in'), link('victim.out -> thief.in'), link('thief.out -> .out')],
    });
    source.add(flow);
    const out = (await run(rt, flow, { in: 'hello' })).output.out;
    expect(out.got).toBe('hello13');
    expect(Object.values(out.names)).toEqual(Array(9).fill('undefined'));
    expect(JSON.stringify(out)).not.toMatch(/VICTIM-SECRET|MODEL-SECRET/);
  });

  test('no Node, timers, network or module loading inside, whatever the path taken', async () => {
    const probe = code(
      'Probe',
      [
        'const seen = {};',
        'seen.process = typeof process;',
        'seen.require = typeof require;',
        'seen.module = typeof module;',
        'seen.setTimeout = typeof setTimeout;',
        'seen.setInterval = typeof setInterval;',
        'seen.fetch = typeof fetch;',
        'seen.XMLHttpRequest = typeof XMLHttpRequest;',
        'seen.Buffer = typeof Buffer;',
        "seen.viaCtx = ctx.constructor.constructor('return typeof process')();",
        "seen.viaFunction = Function('return typeof this.process + typeof this.require')();",
        "seen.viaAsync = await (async () => {}).constructor('return typeof process')();",
        "seen.viaEval = eval('typeof require');",
        "seen.viaIndirectEval = (0, eval)('typeof globalThis.process');",
        "seen.viaLog = ctx.log.constructor('return typeof process')();",
        'Error.prepareStackTrace = (e, frames) => [...new Set(frames.map((f) => typeof f.getFunction()))];',
        'seen.viaStack = new Error().stack;',
        'ctx.output.out = seen;',
      ].join('\n'),
    );
    const r = await run(rt, probe, {});
    expect(r.output.out).toEqual({
      process: 'undefined',
      require: 'undefined',
      module: 'undefined',
      setTimeout: 'undefined',
      setInterval: 'undefined',
      fetch: 'undefined',
      XMLHttpRequest: 'undefined',
      Buffer: 'undefined',
      viaCtx: 'undefined',
      viaFunction: 'undefinedundefined',
      viaAsync: 'undefined',
      viaEval: 'undefined',
      viaIndirectEval: 'undefined',
      viaLog: 'undefined',
      // Frames of strict code hide their functions; nothing on the stack leads outside the isolate.
      viaStack: ['undefined'],
    });
  });

  test('import() of a Node module fails with the component named', async () => {
    const error = await failure(code('Importer', "const fs = await import('node:fs'); ctx.output.out = typeof fs;"));
    expect(error.reason).toBe('code');
    expect(error.message).toMatch(/^Component "Importer" v1: /);
    await stillHealthy();
  });

  test('values coming back cannot pollute the server’s prototypes', async () => {
    const polluter = code(
      'Polluter',
      [
        "Object.prototype.polluted = 'inside';",
        'ctx.output.out = JSON.parse(\'{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}\');',
        'ctx.rt_context = JSON.parse(\'{"__proto__": {"pollutedRt": true}}\');',
      ].join('\n'),
    );
    const user = 'user-1';
    const result = await rt.testComponent(user, polluter._id, {}, {});
    const plain: Record<string, unknown> = {};
    expect(plain.polluted).toBeUndefined();
    expect(plain.pollutedRt).toBeUndefined();
    expect(Object.getPrototypeOf(result.output)).toBe(Object.prototype);
    expect(Object.hasOwn(result.rt_context, '__proto__')).toBe(true);
    expect(JSON.stringify(result.output)).toBe(
      '{"out":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}',
    );
  });

  test('a component cannot see what an earlier run left behind', async () => {
    const writer = code('Writer', "globalThis.secret = 'from an earlier run'; Object.prototype.leak = 1; ctx.output.out = 1;");
    const reader = code('Reader', 'ctx.output.out = [typeof globalThis.secret, typeof ({}).leak];');
    await run(rt, writer, {});
    for (let i = 0; i < 4; i++) expect((await run(rt, reader, {})).output).toEqual({ out: ['undefined', 'undefined'] });
  });
});

describe('load and cancel', () => {
  test('a thousand runs in parallel all answer, through a bounded number of isolates', async () => {
    const results = await Promise.all(Array.from({ length: 1000 }, (_, n) => run(rt, healthy, { n })));
    expect(results.map((r) => r.output.n)).toEqual(Array.from({ length: 1000 }, (_, n) => n + 1));
    expect(rt.stats().total).toBeLessThanOrEqual(2);
    expect(rt.stats().waiting).toBe(0);
  });

  test('stopping a test cancels it within a second and frees its isolate', async () => {
    const slow = memoryRuntime(source, { timeoutMs: 60_000, poolSize: 1 });
    try {
      const spin = code('LongSpin', 'while (true) {}');
      const running = slow.testComponent('user-2', spin._id, {}, {}).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 200));
      expect(slow.stopTest('someone else', spin._id)).toBe(false);
      const stoppedAt = Date.now();
      expect(slow.stopTest('user-2', spin._id)).toBe(true);
      const error = await running;
      expect(Date.now() - stoppedAt).toBeLessThan(1000);
      expect(error).toBeInstanceOf(RunFailure);
      expect(error instanceof RunFailure ? error.message : '').toBe('Execute error : The run was cancelled.');
      expect(slow.stats().tests.total).toBe(0);
      expect(slow.stopTest('user-2', spin._id)).toBe(false);
      expect((await run(slow, healthy, { n: 5 })).output).toEqual({ n: 6 });
    } finally {
      slow.close();
    }
  });

  test('runs beyond the waiting line are refused, not queued without end', async () => {
    const small = memoryRuntime(source, { poolSize: 1, queueLimit: 2 });
    try {
      const settled = await Promise.allSettled(Array.from({ length: 6 }, () => run(small, healthy, { n: 1 })));
      const refused = settled.filter((s) => s.status === 'rejected');
      expect(refused.length).toBe(3);
      for (const r of refused) {
        expect(r.status === 'rejected' && r.reason instanceof RunFailure && r.reason.reason).toBe('busy');
      }
    } finally {
      small.close();
    }
  });
});
