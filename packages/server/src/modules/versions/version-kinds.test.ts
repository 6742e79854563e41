import { nestingDepth } from '@gdb/shared/schemas/schemas.schemas';
import { describe, expect, it } from 'vitest';
import { newId } from '../../platform/ids.ts';
import { KINDS } from './version-kinds.ts';
import type { VersionedRow } from './versions.repo.ts';

const row = (fields: Record<string, unknown>) => ({ id: newId(), ...fields }) as unknown as VersionedRow;
const [a, b, c, d] = [newId(), newId(), newId(), newId()];
const moves = new Map([[a, b]]);

describe('what each kind depends on and how a copy moves it', () => {
  it('data models: every $ref, the fragment kept', () => {
    const doc = row({ json_schema: { items: [{ $ref: `${a}#/definitions/x` }], p: { $ref: c }, q: { $ref: 'by-name' } } });
    expect(KINDS.schema.refs(doc)).toEqual([
      { kind: 'schema', id: a },
      { kind: 'schema', id: c },
    ]);
    expect(JSON.parse(String(KINDS.schema.rewrite(doc, moves)?.json_schema))).toEqual({
      items: [{ $ref: `${b}#/definitions/x` }],
      p: { $ref: c },
      q: { $ref: 'by-name' },
    });
    expect(KINDS.schema.rewrite(doc, new Map([[d, b]]))).toBeNull();
  });

  it('components: port data models, instances, SDK functions; links follow their ports', () => {
    const doc = row({
      inputs: [{ name: 'in', inputSchema: a }],
      outputs: [{ name: 'out', outputSchema: null }],
      instances: [{ name: 'i', instanceOf: c }],
      links: [{ name: 'l', inputSchema: a, outputSchema: null }],
      sdk: [d],
    });
    expect(KINDS.component.refs(doc)).toEqual([
      { kind: 'schema', id: a },
      { kind: 'component', id: c },
      { kind: 'sdk', id: d },
    ]);
    const patch =
      KINDS.component.rewrite(
        doc,
        new Map([
          [a, b],
          [c, a],
        ]),
      ) ?? {};
    expect(JSON.parse(String(patch.inputs))).toEqual([{ name: 'in', inputSchema: b }]);
    expect(JSON.parse(String(patch.instances))).toEqual([{ name: 'i', instanceOf: a }]);
    expect(JSON.parse(String(patch.links))).toEqual([{ name: 'l', inputSchema: b, outputSchema: null }]);
    expect(patch.dependencies).toEqual([a]);
    expect(patch.sdk).toEqual([d]);
    expect(KINDS.component.rewrite(doc, new Map([[newId(), b]]))).toBeNull();
  });

  it('pipelines: the component, the pipeline data model and the sources’ data models', () => {
    const doc = row({ component: c, pipeline_schema: null, data_sources: [{ dataSubKind: 'x', dataModel: a }], is_master: true });
    expect(KINDS.pipeline.refs(doc)).toEqual([
      { kind: 'component', id: c },
      { kind: 'schema', id: a },
    ]);
    expect(KINDS.pipeline.isMaster(doc)).toBe(true);
    const patch = KINDS.pipeline.rewrite(doc, moves) ?? {};
    expect(patch.component).toBe(c);
    expect(JSON.parse(String(patch.data_sources))).toEqual([{ dataSubKind: 'x', dataModel: b }]);
  });

  it('country pipelines: the master, pinned (an update follows a newer master, never makes one)', () => {
    const doc = row({ component: c, pipeline_schema: null, data_sources: [], master_pipeline: a, is_master: false });
    expect(KINDS.pipeline.refs(doc)).toEqual([
      { kind: 'component', id: c },
      { kind: 'pipeline', id: a, pinned: true },
    ]);
    expect(KINDS.pipeline.rewrite(doc, moves)?.master_pipeline).toBe(b);
    expect(KINDS.pipeline.rewrite(doc, new Map([[d, b]]))).toBeNull();
  });

  it('stored JSON of the wrong shape is read as nothing, not as a failure', () => {
    const doc = row({ inputs: 'x', outputs: null, instances: [1, null], links: {}, sdk: 'y', json_schema: 5 });
    expect(KINDS.component.refs(doc)).toEqual([]);
    expect(KINDS.schema.refs(doc)).toEqual([]);
    expect(KINDS.sdk.refs(doc)).toEqual([]);
  });
});

describe('nesting depth of a data model', () => {
  it('counts levels of objects and arrays and stops past the limit', () => {
    expect(nestingDepth(1)).toBe(0);
    expect(nestingDepth({ a: [1, { b: {} }] })).toBe(4);
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i += 1) deep = [deep];
    expect(nestingDepth(deep, 64)).toBe(65);
  });
});
