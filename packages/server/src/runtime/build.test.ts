import { afterAll, describe, expect, test } from 'vitest';
import { component, link, MemorySource, memoryRuntime, schema, sdkFunction } from '../../test/test-runtime.ts';
import { newId } from '../platform/ids.ts';

// Building a component version into one program, and the build errors of docs/product.md §16.3.

const source = new MemorySource();
const rt = memoryRuntime(source);
afterAll(() => rt.close());

const leaf = component({
  name: 'Leaf',
  kind: 'instruction',
  inputs: ['in'],
  outputs: ['out'],
  jsCode: 'ctx.output.out = ctx.input.in;',
});
source.add(leaf);

async function buildError(...docs: Parameters<MemorySource['add']>): Promise<string> {
  source.add(...docs);
  const root = docs[docs.length - 1];
  if (!root || !('kind' in root)) throw new Error('the last document must be the component to build');
  const error = await rt.program(root._id).catch((e: unknown) => e);
  if (!(error instanceof Error)) throw new Error('the build did not fail');
  return error.message;
}

describe('build errors name the component', () => {
  test('duplicate instance, input, output and link names', async () => {
    const message = await buildError(
      component({
        name: 'Dups',
        kind: 'workflow',
        inputs: ['a', 'a'],
        outputs: ['b', 'b'],
        instances: [
          ['x', leaf],
          ['x', leaf],
        ],
        links: [link('.a -> x.in', '', 'l'), link('x.out -> .b', '', 'l')],
      }),
    );
    expect(message).toContain('Component "Dups" v1: duplicate input name "a"');
    expect(message).toContain('Component "Dups" v1: duplicate output name "b"');
    expect(message).toContain('Component "Dups" v1: duplicate instance name "x"');
    expect(message).toContain('Component "Dups" v1: duplicate link name "l"');
  });

  test('a link to an instance or a port that does not exist', async () => {
    const message = await buildError(
      component({
        name: 'Lost',
        kind: 'workflow',
        inputs: ['a'],
        outputs: ['b'],
        instances: [['x', leaf]],
        links: [link('.a -> y.in', '', 'one'), link('x.nope -> .b', '', 'two'), link('.zz -> x.in', '', 'three')],
      }),
    );
    expect(message).toContain('Component "Lost" v1: link "one" cannot find instance "y"');
    expect(message).toContain('Component "Lost" v1: link "two" cannot find port "nope" among the outputs of instance "x"');
    expect(message).toContain('Component "Lost" v1: link "three" cannot find port "zz" among the component\'s inputs');
  });

  test('a data model that is not stored', async () => {
    const missing = newId();
    const message = await buildError(
      component({ name: 'NoModel', kind: 'instruction', inputs: [{ name: 'rows', schema: missing }], jsCode: '' }),
    );
    expect(message).toBe(`Component "NoModel" v1: input port "rows": Cannot load schema ${missing} from server`);
  });

  test('a data model referencing a schema that is not stored', async () => {
    const missing = newId();
    const broken = schema('Broken', { type: 'object', properties: { x: { $ref: missing } } });
    const message = await buildError(
      broken,
      component({ name: 'RefModel', kind: 'instruction', outputs: [{ name: 'o', schema: broken._id }] }),
    );
    expect(message).toContain(`Cannot load schema ${missing} from server`);
  });

  test('a data model that is not a valid JSON schema', async () => {
    const bad = schema('Bad', { type: 'no-such-type' });
    const message = await buildError(
      bad,
      component({ name: 'BadModel', kind: 'instruction', outputs: [{ name: 'o', schema: bad._id }] }),
    );
    expect(message).toContain('Component "BadModel" v1, output port "o": data model "Bad" v1');
    expect(message).toContain('is not a valid JSON schema');
  });

  test('links that make a cycle', async () => {
    const message = await buildError(
      component({
        name: 'Loop',
        kind: 'workflow',
        inputs: ['a'],
        instances: [
          ['x', leaf],
          ['y', leaf],
        ],
        links: [link('.a -> x.in'), link('x.out -> y.in'), link('y.out -> x.in')],
      }),
    );
    expect(message).toBe('Component "Loop" v1: its links make a cycle: x → y → x');
  });

  test('a component that instantiates itself', async () => {
    const selfish = component({ name: 'Selfish', kind: 'workflow', inputs: ['a'] });
    const middle = component({ name: 'Middle', kind: 'workflow', instances: [['s', selfish]] });
    selfish.instances.push({ name: 'm', instanceOf: middle._id });
    const message = await buildError(middle, selfish);
    expect(message).toMatch(/instantiates itself: (Selfish v1 → Middle v1 → Selfish v1|Middle v1 → Selfish v1 → Middle v1)/);
  });

  test('an instance of a component that is not stored', async () => {
    const ghost = newId();
    const message = await buildError(component({ name: 'Haunted', kind: 'workflow', instances: [['g', ghost]] }));
    expect(message).toBe(`Component "Haunted" v1: instance "g" runs component ${ghost}, which cannot be found`);
  });

  test('an SDK function that is not stored', async () => {
    const fn = sdkFunction('gone', 'async () => 1');
    const message = await buildError(component({ name: 'NoSdk', kind: 'instruction', sdk: [fn] }));
    expect(message).toBe(`Component "NoSdk" v1: cannot find SDK function ${fn._id}`);
  });

  test('code that does not parse, with the line of its own code', async () => {
    const message = await buildError(
      component({ name: 'Typo', kind: 'instruction', jsCode: 'const a = 1;\nconst b = a +* 2;\nctx.output.b = b;' }),
    );
    expect(message).toBe('Component "Typo" v1: SyntaxError: Unexpected token \'*\' (line 2 of its code)');
  });

  test('code that tries to close its function and write outside it is refused', async () => {
    const message = await buildError(
      component({ name: 'Breakout', kind: 'instruction', jsCode: '}\n}); globalThis.__gdbMain = () => 1; (function () {\n{' }),
    );
    expect(message).toContain('Component "Breakout" v1: SyntaxError');
  });

  test('link code and SDK code are checked too', async () => {
    const fn = sdkFunction('broken', 'function (a { return a; }');
    source.add(fn);
    const message = await buildError(
      component({
        name: 'Linked',
        kind: 'workflow',
        inputs: ['a'],
        outputs: ['b'],
        links: [link('.a -> .b', 'output = (;', 'bad')],
      }),
      component({ name: 'UsesBroken', kind: 'instruction', sdk: [fn] }),
    );
    expect(message).toContain('SDK function "broken" v1: SyntaxError');
    const linkMessage = await rt
      .program([...source.docs.components.values()].find((c) => c.name === 'Linked')?._id ?? '')
      .catch((e: Error) => e.message);
    expect(linkMessage).toBe('Component "Linked" v1, link "bad": SyntaxError: Unexpected token \';\' (line 1 of its code)');
  });
});

describe('the program', () => {
  test('is one readable program: the library, then each component with its code as written', async () => {
    const flow = component({
      name: 'Readable',
      kind: 'workflow',
      inputs: ['in'],
      outputs: ['out'],
      instances: [['leaf', leaf]],
      links: [link('.in -> leaf.in'), link('leaf.out -> .out', 'output = input * 2;')],
    });
    source.add(flow);
    const { code } = await rt.program(flow._id);
    expect(code).toContain(`// ───── Component "Leaf" v1 · instruction · ${leaf._id} ─────`);
    expect(code).toContain(`// ───── Component "Readable" v1 · workflow · ${flow._id} ─────`);
    expect(code).toContain('\nctx.output.out = ctx.input.in;\n');
    expect(code).toContain('\noutput = input * 2;\n');
    expect(code.indexOf('"Leaf" v1 · instruction')).toBeLessThan(code.indexOf('"Readable" v1 · workflow'));
    // The user code comes last, outside the function holding the library and the definitions.
    expect(code.trimEnd().endsWith(']);')).toBe(true);
    expect(code.indexOf('ctx.output.out = ctx.input.in;')).toBeGreaterThan(code.indexOf('globalThis.__gdbMain'));
  });

  test('is rebuilt when a document it is made of changes, and reused otherwise', async () => {
    const c = component({ name: 'Changing', kind: 'instruction', outputs: ['v'], jsCode: 'ctx.output.v = 1;' });
    source.add(c);
    const first = await rt.program(c._id);
    expect((await rt.program(c._id)).hash).toBe(first.hash);
    source.add({ ...c, jsCode: 'ctx.output.v = 2;', sys_version: 2 });
    const second = await rt.program(c._id);
    expect(second.hash).not.toBe(first.hash);
    expect(second.code).toContain('ctx.output.v = 2;');
  });

  test('names in comments cannot break out of the comment', async () => {
    const c = component({
      name: 'Evil\nglobalThis.x = 1; //',
      kind: 'instruction',
      outputs: ['v'],
      jsCode: 'ctx.output.v = typeof globalThis.x;',
    });
    source.add(c);
    const { code } = await rt.program(c._id);
    expect(code).not.toContain('\nglobalThis.x = 1;');
  });
});

describe('locked versions', () => {
  test('a locked version whose closure is locked is built once and not read again', async () => {
    const counting = new MemorySource();
    let reads = 0;
    const original = counting.components.bind(counting);
    counting.components = async (ids) => {
      reads += 1;
      return original(ids);
    };
    const locked = memoryRuntime(counting);
    try {
      const inner = {
        ...component({ name: 'LockedLeaf', kind: 'function', outputs: ['v'], jsCode: 'return 1;' }),
        vLocked: true,
      };
      const outer = {
        ...component({
          name: 'LockedFlow',
          kind: 'workflow',
          outputs: ['v'],
          instances: [['leaf', inner]],
          links: [link('leaf.v -> .v')],
        }),
        vLocked: true,
      };
      const draft = component({
        name: 'DraftFlow',
        kind: 'workflow',
        outputs: ['v'],
        instances: [['leaf', inner]],
        links: [link('leaf.v -> .v')],
      });
      counting.add(inner, outer, draft);
      const first = await locked.program(outer._id);
      const readsAfterFirst = reads;
      expect((await locked.program(outer._id)).hash).toBe(first.hash);
      expect(reads).toBe(readsAfterFirst);
      await locked.program(draft._id);
      const readsAfterDraft = reads;
      await locked.program(draft._id);
      expect(reads).toBeGreaterThan(readsAfterDraft);
    } finally {
      locked.close();
    }
  });
});
