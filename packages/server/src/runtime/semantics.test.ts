import { afterAll, describe, expect, test } from 'vitest';
import { component, link, MemorySource, memoryRuntime, run, schema, sdkFunction } from '../../test/test-runtime.ts';

// What a component does when it runs (docs/product.md §16.2), seen from its output, logs and rt_context.

const source = new MemorySource();
const rt = memoryRuntime(source);
afterAll(() => rt.close());

const add = <T extends Parameters<MemorySource['add']>[0]>(doc: T): T => {
  source.add(doc);
  return doc;
};

const upper = add(
  component({
    name: 'Upper',
    kind: 'instruction',
    inputs: ['text'],
    outputs: ['text'],
    jsCode: 'ctx.output.text = String(ctx.input.text).toUpperCase();',
  }),
);
const exclaim = add(
  component({ name: 'Exclaim', kind: 'function', inputs: ['text'], outputs: ['text'], jsCode: 'return ctx.input.text + "!";' }),
);

describe('instruction and function', () => {
  test('an instruction fills ctx.output by port name, reads and changes rt_context, and logs', async () => {
    const c = add(
      component({
        name: 'Greeter',
        kind: 'instruction',
        inputs: ['name'],
        outputs: ['greeting', 'length'],
        jsCode: [
          'ctx.output.greeting = `Hello ${ctx.input.name} from ${ctx.rt_context.brand}`;',
          'ctx.output.length = ctx.input.name.length;',
          'ctx.rt_context.greeted = true;',
          'ctx.log("greeted", ctx.input.name);',
          'ctx.log.warn({ careful: 1 });',
          'console.error("via console");',
        ].join('\n'),
      }),
    );
    const r = await run(rt, c, { name: 'Ada' }, { rtContext: { brand: 'Acme' } });
    expect(r.output).toEqual({ greeting: 'Hello Ada from Acme', length: 3 });
    expect(r.rtContext).toEqual({ brand: 'Acme', greeted: true });
    expect(r.logs.map((l) => [l.level, l.message])).toEqual([
      ['info', 'greeted Ada'],
      ['warn', '{"careful":1}'],
      ['error', 'via console'],
    ]);
  });

  test('an instruction can await: its code is the body of an async function', async () => {
    const c = add(
      component({ name: 'Waits', kind: 'instruction', outputs: ['v'], jsCode: 'ctx.output.v = await Promise.resolve(41) + 1;' }),
    );
    expect((await run(rt, c, {})).output).toEqual({ v: 42 });
  });

  test('a function returns its single output', async () => {
    expect((await run(rt, exclaim, { text: 'hi' })).output).toEqual({ text: 'hi!' });
  });

  test('an instruction calls the SDK functions it lists as sdk.<functionName>', async () => {
    const twice = add(sdkFunction('twice', 'async function (x) { return x * 2; }'));
    const shout = add(sdkFunction('shout', '(s) => s.toUpperCase()'));
    const c = add(
      component({
        name: 'UsesSdk',
        kind: 'instruction',
        inputs: ['n'],
        outputs: ['n', 's', 'listed'],
        sdk: [twice, shout],
        jsCode:
          'ctx.output.n = await sdk.twice(ctx.input.n); ctx.output.s = sdk.shout("ok"); ctx.output.listed = Object.keys(sdk).sort();',
      }),
    );
    expect((await run(rt, c, { n: 21 })).output).toEqual({ n: 42, s: 'OK', listed: ['shout', 'twice'] });
  });

  test('a component sees only the SDK functions it lists', async () => {
    const c = add(
      component({ name: 'NoSdk', kind: 'instruction', outputs: ['keys'], jsCode: 'ctx.output.keys = Object.keys(sdk);' }),
    );
    expect((await run(rt, c, {})).output).toEqual({ keys: [] });
  });
});

describe('workflow', () => {
  test('instances run when their inputs are ready; links carry values and map them', async () => {
    const flow = add(
      component({
        name: 'Chain',
        kind: 'workflow',
        inputs: ['text'],
        outputs: ['result', 'raw'],
        // Declared out of order on purpose: the run order follows the links.
        instances: [
          ['b', exclaim],
          ['a', upper],
        ],
        links: [
          link('a.text -> b.text', 'output = input + " there";'),
          link('.text -> a.text'),
          link('b.text -> .result'),
          link('.text -> .raw', 'return input.length;'),
        ],
      }),
    );
    expect((await run(rt, flow, { text: 'hi' })).output).toEqual({ result: 'HI there!', raw: 2 });
  });

  test('a join port gathers every incoming value into an array, in the order they arrive', async () => {
    const count = add(
      component({
        name: 'Count',
        kind: 'function',
        inputs: [{ name: 'items', isJoin: true }],
        outputs: ['summary'],
        jsCode: 'return ctx.input.items.join(",");',
      }),
    );
    const flow = add(
      component({
        name: 'Gather',
        kind: 'workflow',
        inputs: ['a', 'b'],
        outputs: ['summary'],
        instances: [
          ['up', upper],
          ['count', count],
        ],
        links: [
          link('.a -> up.text'),
          link('up.text -> count.items'),
          link('.b -> count.items'),
          link('count.summary -> .summary'),
        ],
      }),
    );
    // The component's own input arrives first; the instance's output when the instance has run.
    expect((await run(rt, flow, { a: 'x', b: 'y' })).output).toEqual({ summary: 'y,X' });
  });

  test('a fork port sends each element on its own; the next instance runs once per element', async () => {
    const split = add(
      component({
        name: 'Split',
        kind: 'function',
        inputs: ['text'],
        outputs: [{ name: 'words', isFork: true }],
        jsCode: 'return ctx.input.text.split(" ");',
      }),
    );
    const flow = add(
      component({
        name: 'Words',
        kind: 'workflow',
        inputs: ['text'],
        outputs: [{ name: 'words', isJoin: true }],
        instances: [
          ['split', split],
          ['up', upper],
        ],
        links: [link('.text -> split.text'), link('split.words -> up.text'), link('up.text -> .words')],
      }),
    );
    expect((await run(rt, flow, { text: 'a bc def' })).output).toEqual({ words: ['A', 'BC', 'DEF'] });
  });

  test('a forked stream meets a single value: the single value goes to every run', async () => {
    const join = add(
      component({
        name: 'Pair',
        kind: 'function',
        inputs: ['x', 'y'],
        outputs: ['pair'],
        jsCode: 'return ctx.input.x + ctx.input.y;',
      }),
    );
    const flow = add(
      component({
        name: 'Broadcast',
        kind: 'workflow',
        inputs: [{ name: 'items', isFork: true }, 'suffix'],
        outputs: [{ name: 'out', isJoin: true }],
        instances: [['pair', join]],
        links: [link('.items -> pair.x'), link('.suffix -> pair.y'), link('pair.pair -> .out')],
      }),
    );
    expect((await run(rt, flow, { items: ['a', 'b'], suffix: '-1' })).output).toEqual({ out: ['a-1', 'b-1'] });
  });

  test('an output port that is not produced sends nothing: the instances after it do not run', async () => {
    const maybe = add(
      component({
        name: 'Maybe',
        kind: 'instruction',
        inputs: ['n'],
        outputs: ['even', 'odd'],
        jsCode: 'if (ctx.input.n % 2 === 0) ctx.output.even = ctx.input.n; else ctx.output.odd = ctx.input.n;',
      }),
    );
    const counter = add(
      component({
        name: 'Counter',
        kind: 'instruction',
        inputs: ['n'],
        outputs: ['n'],
        jsCode: 'ctx.rt_context.runs = (ctx.rt_context.runs || 0) + 1; ctx.output.n = ctx.input.n;',
      }),
    );
    const flow = add(
      component({
        name: 'Route',
        kind: 'workflow',
        inputs: [{ name: 'numbers', isFork: true }],
        outputs: [
          { name: 'evens', isJoin: true },
          { name: 'odds', isJoin: true },
        ],
        instances: [
          ['maybe', maybe],
          ['count', counter],
        ],
        links: [
          link('.numbers -> maybe.n'),
          link('maybe.even -> count.n'),
          link('count.n -> .evens'),
          link('maybe.odd -> .odds'),
        ],
      }),
    );
    const r = await run(rt, flow, { numbers: [1, 2, 3, 4, 5] });
    expect(r.output).toEqual({ evens: [2, 4], odds: [1, 3, 5] });
    expect(r.rtContext).toEqual({ runs: 2 });
  });

  test('link code that answers undefined drops the value', async () => {
    const flow = add(
      component({
        name: 'Filter',
        kind: 'workflow',
        inputs: [{ name: 'n', isFork: true }],
        outputs: [{ name: 'big', isJoin: true }],
        links: [link('.n -> .big', 'if (input < 10) return undefined;')],
      }),
    );
    expect((await run(rt, flow, { n: [1, 20, 3, 40] })).output).toEqual({ big: [20, 40] });
  });

  test('several values on a port that is not a join port are refused with the port named', async () => {
    const flow = add(
      component({
        name: 'TooMany',
        kind: 'workflow',
        inputs: [{ name: 'n', isFork: true }],
        outputs: ['one'],
        links: [link('.n -> .one')],
      }),
    );
    await expect(run(rt, flow, { n: [1, 2] })).rejects.toThrow(
      'Component "TooMany" v1: output port "one" received 2 values; make it a join port to gather them',
    );
  });
});

describe('what a run refuses', () => {
  test('link code that answers a promise', async () => {
    const flow = add(
      component({
        name: 'AsyncLink',
        kind: 'workflow',
        inputs: ['a'],
        outputs: ['b'],
        links: [link('.a -> .b', 'return Promise.resolve(input);', 'slow')],
      }),
    );
    await expect(run(rt, flow, { a: 1 })).rejects.toThrow(
      'Component "AsyncLink" v1: link "slow" returned a promise; link code maps a value synchronously',
    );
  });

  test('an rt_context or a payload that is not an object', async () => {
    const c = add(component({ name: 'BadContext', kind: 'instruction', jsCode: 'ctx.rt_context = 5;' }));
    await expect(run(rt, c, {})).rejects.toThrow('ctx.rt_context must stay a JSON object.');
    await expect(run(rt, upper, [1, 2])).rejects.toThrow('The payload must be a JSON object with a value for each input port.');
  });

  test('a fork port whose value is not an array', async () => {
    const flow = add(
      component({
        name: 'NotAList',
        kind: 'workflow',
        inputs: [{ name: 'items', isFork: true }],
        outputs: ['x'],
        links: [link('.items -> .x')],
      }),
    );
    await expect(run(rt, flow, { items: 'abc' })).rejects.toThrow(
      'Component "NotAList" v1: input port "items" is a fork port but its value is not an array',
    );
  });
});

describe('forEach', () => {
  test('runs its inner graph once per element of its array input and collects the outputs', async () => {
    const each = add(
      component({
        name: 'EachUpper',
        kind: 'forEach',
        inputs: ['rows', 'prefix'],
        outputs: ['rows', 'lengths'],
        instances: [['up', upper]],
        links: [
          link('.rows -> up.text', 'output = input.name;'),
          link('up.text -> .rows', 'output = rt_context.tag + input;'),
          link('.rows -> .lengths', 'return input.name.length > 1 ? input.name.length : undefined;'),
        ],
      }),
    );
    const r = await run(rt, each, { rows: [{ name: 'ab' }, { name: 'c' }, { name: 'def' }] }, { rtContext: { tag: '#' } });
    expect(r.output).toEqual({ rows: ['#AB', '#C', '#DEF'], lengths: [2, 3] });
  });

  test('an empty or missing array runs nothing and answers empty lists', async () => {
    const each = add(
      component({ name: 'EachNothing', kind: 'forEach', inputs: ['rows'], outputs: ['rows'], links: [link('.rows -> .rows')] }),
    );
    expect((await run(rt, each, { rows: [] })).output).toEqual({ rows: [] });
    expect((await run(rt, each, {})).output).toEqual({ rows: [] });
  });

  test('nested: a workflow runs a forEach whose inner graph runs a workflow', async () => {
    const shout = add(
      component({
        name: 'Shout',
        kind: 'workflow',
        inputs: ['text'],
        outputs: ['text'],
        instances: [
          ['u', upper],
          ['e', exclaim],
        ],
        links: [link('.text -> u.text'), link('u.text -> e.text'), link('e.text -> .text')],
      }),
    );
    const each = add(
      component({
        name: 'ShoutAll',
        kind: 'forEach',
        inputs: ['rows'],
        outputs: ['rows'],
        instances: [['shout', shout]],
        links: [link('.rows -> shout.text'), link('shout.text -> .rows')],
      }),
    );
    const outer = add(
      component({
        name: 'Outer',
        kind: 'workflow',
        inputs: ['rows'],
        outputs: ['rows', 'count'],
        instances: [['all', each]],
        links: [link('.rows -> all.rows'), link('all.rows -> .rows'), link('all.rows -> .count', 'return input.length;')],
      }),
    );
    expect((await run(rt, outer, { rows: ['a', 'b'] })).output).toEqual({ rows: ['A!', 'B!'], count: 2 });
  });

  test('an error inside names the component, where it ran (with the element) and the line of its code', async () => {
    const boom = add(
      component({
        name: 'Boom',
        kind: 'instruction',
        inputs: ['v'],
        outputs: ['v'],
        jsCode: 'const x = ctx.input.v;\nif (x === 2) {\n  null.explode;\n}\nctx.output.v = x;',
      }),
    );
    const each = add(
      component({
        name: 'EachBoom',
        kind: 'forEach',
        inputs: ['rows'],
        outputs: ['rows'],
        instances: [['inner', boom]],
        links: [link('.rows -> inner.v'), link('inner.v -> .rows')],
      }),
    );
    const error = await run(rt, each, { rows: [1, 2, 3] }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error instanceof Error ? error.message : error)).toBe(
      'Component "Boom" v1 at EachBoom[1] › inner: TypeError: Cannot read properties of null (reading \'explode\') (line 3 of its code)',
    );
  });
});

describe('data model checks', () => {
  const row = add(
    schema('Row', {
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, qty: { type: 'integer', minimum: 0 } },
      required: ['name'],
    }),
  );
  const bump = add(
    component({
      name: 'Bump',
      kind: 'instruction',
      inputs: [{ name: 'row', schema: row._id }],
      outputs: [{ name: 'row', schema: row._id }],
      jsCode: 'ctx.output.row = { ...ctx.input.row, qty: ctx.input.row.qty - 1 };',
    }),
  );
  const each = add(
    component({
      name: 'BumpAll',
      kind: 'forEach',
      inputs: [{ name: 'rows', schema: row._id }],
      outputs: [{ name: 'rows', schema: row._id }],
      instances: [['bump', bump]],
      links: [link('.rows -> bump.row'), link('bump.row -> .rows')],
    }),
  );

  test('values that match their data models pass', async () => {
    expect((await run(rt, each, { rows: [{ name: 'a', qty: 2 }] })).output).toEqual({ rows: [{ name: 'a', qty: 1 }] });
  });

  test('a value entering a port is checked: the error names component, port, model and failing path', async () => {
    await expect(run(rt, each, { rows: [{ name: 'a', qty: 1 }, { qty: 3 }] })).rejects.toThrow(
      'Component "BumpAll" v1: input port "rows": the value does not match data model "Row" v1 at /1: must have required property \'name\'',
    );
  });

  test('a value leaving a port is checked: the instance and element are named', async () => {
    await expect(
      run(rt, each, {
        rows: [
          { name: 'a', qty: 3 },
          { name: 'b', qty: 0 },
        ],
      }),
    ).rejects.toThrow(
      'Component "Bump" v1 at BumpAll[1] › bump: output port "row": the value does not match data model "Row" v1 at /qty: must be >= 0',
    );
  });

  test('a value changed by link code is checked again where it arrives', async () => {
    const flow = add(
      component({
        name: 'Breaks',
        kind: 'workflow',
        inputs: [{ name: 'row', schema: row._id }],
        outputs: ['row'],
        instances: [['bump', bump]],
        links: [link('.row -> bump.row', 'output = { ...input, name: 7 };', 'spoil'), link('bump.row -> .row')],
      }),
    );
    await expect(run(rt, flow, { row: { name: 'a', qty: 1 } })).rejects.toThrow(
      'Component "Bump" v1 at Breaks › bump: input port "row": the value does not match data model "Row" v1 at /name: must be string',
    );
  });

  test('with checks off, the same values pass', async () => {
    const r = await run(rt, each, { rows: [{ name: 'b', qty: 0 }] }, { checkPorts: false });
    expect(r.output).toEqual({ rows: [{ name: 'b', qty: -1 }] });
  });

  test('a port carrying an array of items (inputIsJoin) is checked element by element', async () => {
    const c = add(
      component({
        name: 'Batch',
        kind: 'function',
        inputs: [{ name: 'rows', schema: row._id, inputIsJoin: true }],
        outputs: ['count'],
        jsCode: 'return ctx.input.rows.length;',
      }),
    );
    expect((await run(rt, c, { rows: [{ name: 'a' }, { name: 'b' }] })).output).toEqual({ count: 2 });
    await expect(run(rt, c, { rows: [{ name: 'a' }, { name: '' }] })).rejects.toThrow(
      'Component "Batch" v1: input port "rows": the value does not match data model "Row" v1 at /1/name: must NOT have fewer than 1 characters',
    );
    await expect(run(rt, c, { rows: { name: 'a' } })).rejects.toThrow(
      'Component "Batch" v1: input port "rows" needs an array: its data model "Row" describes each element',
    );
  });

  test('a pattern is checked in linear time inside the sandbox: ^(a+)+$ on 41 characters answers at once', async () => {
    const code = add(schema('Letters', { type: 'string', pattern: '^(a+)+$' }));
    const c = add(component({ name: 'Letters', kind: 'instruction', inputs: [{ name: 'v', schema: code._id }], outputs: [] }));
    const started = performance.now();
    await expect(run(rt, c, { v: `${'a'.repeat(40)}!` })).rejects.toThrow(
      'input port "v": the value does not match data model "Letters" v1 at /: must match pattern "^(a+)+$"',
    );
    await run(rt, c, { v: 'a'.repeat(41) });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test('a data model can reference another one by its id, and use formats', async () => {
    const email = add(schema('Email', { type: 'string', format: 'email' }));
    const person = add(schema('Person', { type: 'object', properties: { mail: { $ref: email._id } }, required: ['mail'] }));
    const c = add(
      component({
        name: 'Mailer',
        kind: 'instruction',
        inputs: [{ name: 'p', schema: person._id }],
        outputs: ['ok'],
        jsCode: 'ctx.output.ok = true;',
      }),
    );
    expect((await run(rt, c, { p: { mail: 'a@b.example' } })).output).toEqual({ ok: true });
    await expect(run(rt, c, { p: { mail: 'not mail' } })).rejects.toThrow(
      'input port "p": the value does not match data model "Person" v1 at /mail: must match format "email"',
    );
  });

  test('a date-time and a time without a zone pass their formats, as a sheet gives them; an hour past 23 does not', async () => {
    const when = add(
      schema('When', {
        type: 'object',
        properties: { at: { type: 'string', format: 'date-time' }, time: { type: 'string', format: 'time' } },
      }),
    );
    const c = add(
      component({
        name: 'Clock',
        kind: 'instruction',
        inputs: [{ name: 'w', schema: when._id }],
        outputs: ['ok'],
        jsCode: 'ctx.output.ok = true;',
      }),
    );
    for (const w of [
      { at: '2026-03-01T14:30:15', time: '14:30:15' },
      { at: '2026-03-01T14:30:15+01:00', time: '14:30:15Z' },
    ]) {
      expect((await run(rt, c, { w })).output, JSON.stringify(w)).toEqual({ ok: true });
    }
    await expect(run(rt, c, { w: { at: '2026-03-01T14:30:15', time: '36:00:00' } })).rejects.toThrow(
      'input port "w": the value does not match data model "When" v1 at /time: must match format "time"',
    );
  });
});
