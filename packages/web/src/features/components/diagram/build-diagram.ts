import type { Component, ComponentKind } from '@gdb/shared/components/components.schemas';
import { schemaText } from './schema-text.ts';

/** A port drawn in a box: its name and its data model as text. */
export interface DiagramPort {
  name: string;
  model: string;
}

/** A box of the diagram: a port of the component, an instance (or the component itself), or a link. */
export type DiagramBox =
  | { id: string; kind: 'input' | 'output'; port: DiagramPort }
  | {
      id: string;
      kind: ComponentKind;
      name: string;
      /** The component version it runs (absent for the component itself). */
      target: { id: string; name: string; version: number } | null;
      inputs: DiagramPort[];
      outputs: DiagramPort[];
    }
  | { id: string; kind: 'link'; name: string; fromPort: string; toPort: string };

interface DiagramArrow {
  id: string;
  source: string;
  target: string;
}

export interface Diagram {
  boxes: DiagramBox[];
  arrows: DiagramArrow[];
}

/** What the diagram is drawn from: the component, the versions its instances run, the data models by id. */
export interface DiagramSources {
  component: Component;
  used: ReadonlyMap<string, Component>;
  models: ReadonlyMap<string, unknown>;
  /** true: the instances and links inside; false: the component as one box between its ports. */
  inside: boolean;
}

/** The diagram could not be built: every problem, each naming the component (docs/product.md §16.3). */
export class DiagramError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

function duplicates(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const n of names) (seen.has(n) ? twice : seen).add(n);
  return [...twice];
}

const portOf = (models: ReadonlyMap<string, unknown>, name: string, id: string | null): DiagramPort => ({
  name,
  model: id ? schemaText(models.get(id)) : 'any',
});

/** The problems of a component's names, port models and links, in the words the server's build uses. */
function diagramProblems({ component: c, used, models }: DiagramSources): string[] {
  const problems: string[] = [];
  const add = (message: string) => problems.push(`Component "${c.name}" v${c.version}: ${message}`);
  for (const n of duplicates(c.inputs.map((p) => p.name))) add(`duplicate input name "${n}"`);
  for (const n of duplicates(c.outputs.map((p) => p.name))) add(`duplicate output name "${n}"`);
  for (const p of c.inputs) {
    if (p.inputSchema && !models.has(p.inputSchema))
      add(`input port "${p.name}": Cannot load schema ${p.inputSchema} from server`);
  }
  for (const p of c.outputs) {
    if (p.outputSchema && !models.has(p.outputSchema)) {
      add(`output port "${p.name}": Cannot load schema ${p.outputSchema} from server`);
    }
  }
  if (c.kind !== 'workflow' && c.kind !== 'forEach') return problems;
  for (const n of duplicates(c.instances.map((i) => i.name))) add(`duplicate instance name "${n}"`);
  for (const n of duplicates(c.links.map((l) => l.name))) add(`duplicate link name "${n}"`);
  const instances = new Map(c.instances.map((i) => [i.name, used.get(i.instanceOf)]));
  for (const link of c.links) {
    for (const side of ['from', 'to'] as const) {
      const problem = endProblem(
        c,
        instances,
        side === 'from' ? link.fromInstance : link.toInstance,
        side === 'from' ? link.fromPort : link.toPort,
        side,
      );
      if (problem) add(`link "${link.name}" ${problem}`);
    }
  }
  return problems;
}

function endProblem(
  c: Component,
  instances: ReadonlyMap<string, Component | undefined>,
  instance: string,
  port: string,
  side: 'from' | 'to',
): string | null {
  if (!instance) {
    const ports = side === 'from' ? c.inputs : c.outputs;
    return ports.some((p) => p.name === port)
      ? null
      : `cannot find port "${port}" among the component's ${side === 'from' ? 'inputs' : 'outputs'}`;
  }
  if (!instances.has(instance)) return `cannot find instance "${instance}"`;
  const target = instances.get(instance);
  if (!target) return null;
  const ports = side === 'from' ? target.outputs : target.inputs;
  if (ports.some((p) => p.name === port)) return null;
  return `cannot find port "${port}" among the ${side === 'from' ? 'outputs' : 'inputs'} of instance "${instance}"`;
}

const inId = (name: string) => `in:${name}`;
const outId = (name: string) => `out:${name}`;
const instanceId = (name: string) => `instance:${name}`;

/** The boxes and arrows of a component; throws a DiagramError listing every problem. */
export function buildDiagram(sources: DiagramSources): Diagram {
  const problems = diagramProblems(sources);
  if (problems.length > 0) throw new DiagramError(problems);
  const { component: c, used, models } = sources;
  const boxes: DiagramBox[] = [
    ...c.inputs.map((p) => ({ id: inId(p.name), kind: 'input' as const, port: portOf(models, p.name, p.inputSchema) })),
    ...c.outputs.map((p) => ({ id: outId(p.name), kind: 'output' as const, port: portOf(models, p.name, p.outputSchema) })),
  ];
  const inside = sources.inside && (c.kind === 'workflow' || c.kind === 'forEach');
  if (!inside) return outsideView(c, models, boxes);
  for (const inst of c.instances) {
    const target = used.get(inst.instanceOf);
    boxes.push({
      id: instanceId(inst.name),
      kind: target?.kind ?? 'instruction',
      name: inst.name,
      target: { id: inst.instanceOf, name: target?.name ?? inst.instanceOf, version: target?.version ?? 0 },
      inputs: (target?.inputs ?? []).map((p) => portOf(models, p.name, p.inputSchema)),
      outputs: (target?.outputs ?? []).map((p) => portOf(models, p.name, p.outputSchema)),
    });
  }
  const arrows: DiagramArrow[] = [];
  c.links.forEach((link, i) => {
    const id = `link:${i}`;
    boxes.push({ id, kind: 'link', name: link.name, fromPort: link.fromPort, toPort: link.toPort });
    const from = link.fromInstance ? instanceId(link.fromInstance) : inId(link.fromPort);
    const to = link.toInstance ? instanceId(link.toInstance) : outId(link.toPort);
    arrows.push({ id: `${id}:from`, source: from, target: id }, { id: `${id}:to`, source: id, target: to });
  });
  return { boxes, arrows };
}

/** The component as one box of its kind, its input ports leading in and its output ports out. */
function outsideView(c: Component, models: ReadonlyMap<string, unknown>, ports: DiagramBox[]): Diagram {
  const self = 'self';
  const boxes: DiagramBox[] = [
    ...ports,
    {
      id: self,
      kind: c.kind,
      name: c.name,
      target: null,
      inputs: c.inputs.map((p) => portOf(models, p.name, p.inputSchema)),
      outputs: c.outputs.map((p) => portOf(models, p.name, p.outputSchema)),
    },
  ];
  const arrows = [
    ...c.inputs.map((p) => ({ id: `${inId(p.name)}:self`, source: inId(p.name), target: self })),
    ...c.outputs.map((p) => ({ id: `self:${outId(p.name)}`, source: self, target: outId(p.name) })),
  ];
  return { boxes, arrows };
}

/** The ids of the component versions and data models a diagram needs read. */
export function diagramNeeds(c: Component, used: readonly Component[]): { components: string[]; models: string[] } {
  const models = new Set<string>();
  for (const x of [c, ...used]) {
    for (const p of x.inputs) if (p.inputSchema) models.add(p.inputSchema);
    for (const p of x.outputs) if (p.outputSchema) models.add(p.outputSchema);
  }
  return { components: [...new Set(c.instances.map((i) => i.instanceOf))].sort(), models: [...models].sort() };
}
