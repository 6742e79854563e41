import type { SchemaDocument } from '@gdb/shared/schemas/schemas.schemas';
import { describe, expect, it } from 'vitest';
import { schema } from '../../test/test-runtime.ts';
import { COMPILE_MESSAGES, modelCompiler } from './model-compiler.ts';
import { buildModels } from './models.ts';

const byId = (...docs: SchemaDocument[]) => new Map(docs.map((d) => [d._id, d]));
const ports = (...docs: SchemaDocument[]) => new Map(docs.map((d) => [d._id, [`Component "C" v1, input port "${d.name}"`]]));

describe('data models compiled off the event loop', () => {
  it('keeps each model by its versions: editing one recompiles it and what references it, nothing else', async () => {
    const compiler = modelCompiler({ timeoutMs: 10_000, memoryMiB: 64 });
    const code = schema('Code', { type: 'string', pattern: '^[A-Z]{2}$' });
    const row = schema('Row', { type: 'object', properties: { code: { $ref: code._id } } });
    const other = schema('Other', { type: 'integer' });
    const problems: { component: string; message: string }[] = [];
    const first = await buildModels(byId(code, row, other), ports(row, other), problems, compiler);
    expect(problems).toEqual([]);
    expect([...first.exportOf.keys()]).toEqual([row._id, other._id]);
    expect([...first.modules.keys()]).toContain('re2js');
    expect(compiler.compiled()).toBe(2);

    await buildModels(byId(code, row, other), ports(row, other), problems, compiler);
    expect(compiler.compiled()).toBe(2);

    const edited = { ...code, sys_version: code.sys_version + 1, jsonSchema: { type: 'string', pattern: '^[A-Z]{3}$' } };
    await buildModels(byId(edited, row, other), ports(row, other), problems, compiler);
    expect(compiler.compiled()).toBe(3);
  });

  it('stops a compile past its time limit and names the setting, the event loop answering meanwhile', async () => {
    const compiler = modelCompiler({ timeoutMs: 1000, memoryMiB: 256 });
    const values = Array.from({ length: 100_000 }, (_, i) => i);
    const hostile = schema('Many', { type: 'object', properties: { n: { type: 'integer', enum: values } } });
    const problems: { component: string; message: string }[] = [];
    let slowestTick = 0;
    let last = performance.now();
    const ticks = setInterval(() => {
      slowestTick = Math.max(slowestTick, performance.now() - last);
      last = performance.now();
    }, 10);
    const started = performance.now();
    try {
      await buildModels(byId(hostile), ports(hostile), problems, compiler);
    } finally {
      clearInterval(ticks);
    }
    expect(performance.now() - started).toBeLessThan(5000);
    expect(slowestTick).toBeLessThan(200);
    expect(problems).toEqual([
      {
        component: 'Many',
        message: `Component "C" v1, input port "Many": data model "Many" v1 (${hostile._id}) cannot be compiled: ${COMPILE_MESSAGES.timeout(1000)}`,
      },
    ]);
  });

  it('ends a compile past its memory limit and names the setting', async () => {
    const compiler = modelCompiler({ timeoutMs: 60_000, memoryMiB: 16 });
    const properties = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`field_${i}`, { type: 'string', minLength: 1 }]),
    );
    const hostile = schema('Heavy', { type: 'object', properties });
    const problems: { component: string; message: string }[] = [];
    await buildModels(byId(hostile), ports(hostile), problems, compiler);
    expect(problems[0]?.message).toContain(`cannot be compiled: ${COMPILE_MESSAGES.memory(16)}`);
  }, 70_000);

  it('compiles again a model whose compile was stopped at its time limit, but keeps a model the compiler refuses', async () => {
    // A time limit no compile meets stands for a machine too busy to compile in time.
    const busy = modelCompiler({ timeoutMs: 1, memoryMiB: 64 });
    const plain = schema('Plain', { type: 'object', properties: { n: { type: 'integer' } } });
    const problems: { component: string; message: string }[] = [];
    await buildModels(byId(plain), ports(plain), problems, busy);
    await buildModels(byId(plain), ports(plain), problems, busy);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringContaining(COMPILE_MESSAGES.timeout(1)),
      expect.stringContaining(COMPILE_MESSAGES.timeout(1)),
    ]);
    expect(busy.compiled()).toBe(2);

    const compiler = modelCompiler({ timeoutMs: 10_000, memoryMiB: 64 });
    const broken = schema('Broken', { type: 'object', properties: { n: { type: 'no such type' } } });
    const refused: { component: string; message: string }[] = [];
    await buildModels(byId(broken), ports(broken), refused, compiler);
    await buildModels(byId(broken), ports(broken), refused, compiler);
    expect(refused).toHaveLength(2);
    expect(refused[0]?.message).toContain('is not a valid JSON schema');
    expect(compiler.compiled()).toBe(1);
  });
});
