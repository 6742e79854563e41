import type { Component } from '@gdb/shared/components/components.schemas';
import { describe, expect, it } from 'vitest';
import { buildDiagram, DiagramError, type DiagramSources } from './build-diagram.ts';

const MODEL = 'model-1';
const base = (over: Partial<Component>): Component =>
  ({
    _id: 'c1',
    name: 'Dealers',
    version: 2,
    kind: 'workflow',
    inputs: [{ name: 'rows', inputSchema: MODEL, isJoin: false, isFork: false, inputIsJoin: false }],
    outputs: [{ name: 'mapped', outputSchema: null, isJoin: false, isFork: false }],
    instances: [],
    links: [],
    ...over,
  }) as Component;
const link = (name: string, fromInstance: string, fromPort: string, toInstance: string, toPort: string) => ({
  name,
  fromInstance,
  fromPort,
  toInstance,
  toPort,
  jsCode: '',
  inputSchema: null,
  outputSchema: null,
});
const check = base({ _id: 'c2', name: 'Check', kind: 'instruction', version: 1 });
const sources = (component: Component, inside = true): DiagramSources => ({
  component,
  used: new Map([['c2', check]]),
  models: new Map([[MODEL, { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }]]),
  inside,
});
const problems = (s: DiagramSources) => {
  try {
    buildDiagram(s);
    return [];
  } catch (error) {
    return error instanceof DiagramError ? error.problems : ['unexpected'];
  }
};

describe('buildDiagram', () => {
  it('draws ports with their data model as text, instances linking to their component, and a box per link', () => {
    const workflow = base({
      instances: [{ name: 'first', instanceOf: 'c2' }],
      links: [link('in', '', 'rows', 'first', 'rows'), link('out', 'first', 'mapped', '', 'mapped')],
    });
    const { boxes, arrows } = buildDiagram(sources(workflow));
    expect(boxes.find((b) => b.id === 'in:rows')).toMatchObject({
      kind: 'input',
      port: { name: 'rows', model: '{id: integer}[]' },
    });
    expect(boxes.find((b) => b.id === 'instance:first')).toMatchObject({
      kind: 'instruction',
      target: { id: 'c2', name: 'Check', version: 1 },
    });
    expect(boxes.filter((b) => b.kind === 'link')).toHaveLength(2);
    expect(arrows.map((a) => `${a.source}>${a.target}`)).toEqual([
      'in:rows>link:0',
      'link:0>instance:first',
      'instance:first>link:1',
      'link:1>out:mapped',
    ]);
  });

  it('draws the component as one box between its ports when the inside is hidden', () => {
    const { boxes } = buildDiagram(sources(base({ instances: [{ name: 'first', instanceOf: 'c2' }] }), false));
    expect(boxes.map((b) => b.id)).toEqual(['in:rows', 'out:mapped', 'self']);
  });

  it('names the component in every problem: duplicate names, missing instance or port, a data model it cannot load', () => {
    const broken = base({
      inputs: [
        { name: 'rows', inputSchema: 'gone', isJoin: false, isFork: false, inputIsJoin: false },
        { name: 'rows', inputSchema: null, isJoin: false, isFork: false, inputIsJoin: false },
      ],
      instances: [
        { name: 'a', instanceOf: 'c2' },
        { name: 'a', instanceOf: 'c2' },
      ],
      links: [link('l', 'ghost', 'x', '', 'nowhere'), link('l', 'a', 'nope', '', 'mapped')],
    });
    expect(problems(sources(broken))).toEqual([
      'Component "Dealers" v2: duplicate input name "rows"',
      'Component "Dealers" v2: input port "rows": Cannot load schema gone from server',
      'Component "Dealers" v2: duplicate instance name "a"',
      'Component "Dealers" v2: duplicate link name "l"',
      'Component "Dealers" v2: link "l" cannot find instance "ghost"',
      `Component "Dealers" v2: link "l" cannot find port "nowhere" among the component's outputs`,
      'Component "Dealers" v2: link "l" cannot find port "nope" among the outputs of instance "a"',
    ]);
  });
});
