import type { Component } from '@gdb/shared/components/components.schemas';
import { type ComponentGraph, schemaRefs } from './graph.ts';
import { buildFailure } from './run-failure.ts';

export interface Problem {
  component: string;
  message: string;
}

/** How a component is named in messages: its name and version. */
export function label(c: Pick<Component, 'name' | 'version'>): string {
  return `Component "${c.name}" v${c.version}`;
}

function duplicates(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const n of names) (seen.has(n) ? twice : seen).add(n);
  return [...twice];
}

/**
 * Checks a loaded graph (docs/product.md §16.3) and answers, for each workflow and forEach, the order its
 * instances run in; throws a build failure listing every problem, each naming its component.
 */
export function checkGraph(graph: ComponentGraph): Map<string, number[]> {
  const problems: Problem[] = [];
  const orders = new Map<string, number[]>();
  for (const c of graph.components.values()) {
    const own = checkComponent(c, graph, problems);
    if (own) orders.set(c._id, own);
  }
  for (const s of graph.schemas.values()) {
    for (const ref of schemaRefs(s.jsonSchema)) {
      if (graph.missingSchemas.has(ref)) {
        problems.push({
          component: s.name,
          message: `Data model "${s.name}" v${s.version}: Cannot load schema ${ref} from server`,
        });
      }
    }
  }
  checkRecursion(graph, problems);
  if (problems.length > 0) throw buildFailure(problems);
  return orders;
}

/** What the checks of one component read of the graph around it. */
type Checked = Pick<ComponentGraph, 'components' | 'missingSchemas' | 'sdk'>;

/** What the checks of one component read of it. */
type Definition = Pick<Component, '_id' | 'name' | 'version' | 'kind' | 'inputs' | 'outputs' | 'instances' | 'links' | 'sdk'>;

/**
 * The build problems of one component's own definition, as a save checks it (docs/product.md §16.3): repeated
 * instance, input, output or link names, links naming a port or an instance that does not exist;
 * `used` holds the components its instances run. Its SDK functions and data models are checked apart.
 */
export function definitionProblems(c: Omit<Definition, 'sdk'>, used: readonly Component[]): Problem[] {
  const graph = { components: new Map(used.map((u) => [u._id, u])), missingSchemas: new Set<string>(), sdk: new Map() };
  const problems: Problem[] = [];
  checkComponent({ ...c, sdk: [] }, graph, problems);
  return problems;
}

function checkComponent(c: Definition, graph: Checked, problems: Problem[]): number[] | null {
  const who = label(c);
  const add = (message: string) => problems.push({ component: c.name, message: `${who}: ${message}` });
  for (const n of duplicates(c.inputs.map((p) => p.name))) add(`duplicate input name "${n}"`);
  for (const n of duplicates(c.outputs.map((p) => p.name))) add(`duplicate output name "${n}"`);
  for (const p of c.inputs) {
    if (p.inputSchema && graph.missingSchemas.has(p.inputSchema))
      add(`input port "${p.name}": Cannot load schema ${p.inputSchema} from server`);
  }
  for (const p of c.outputs) {
    if (p.outputSchema && graph.missingSchemas.has(p.outputSchema)) {
      add(`output port "${p.name}": Cannot load schema ${p.outputSchema} from server`);
    }
  }
  const names = new Map<string, string>();
  for (const id of c.sdk) {
    const f = graph.sdk.get(id);
    if (!f) {
      add(`cannot find SDK function ${id}`);
      continue;
    }
    const other = names.get(f.functionName);
    if (other && other !== id) add(`uses two SDK functions named "${f.functionName}"`);
    names.set(f.functionName, id);
  }
  if (c.kind === 'function' && c.outputs.length > 1) add('a function answers a single output port');
  if (c.kind === 'forEach' && c.inputs.length === 0) add('a forEach needs an input port with the array it goes through');
  if (c.kind !== 'workflow' && c.kind !== 'forEach') return null;

  for (const n of duplicates(c.instances.map((i) => i.name))) add(`duplicate instance name "${n}"`);
  for (const n of duplicates(c.links.map((l) => l.name))) add(`duplicate link name "${n}"`);
  const index = new Map(c.instances.map((inst, i) => [inst.name, i]));
  for (const inst of c.instances) {
    if (!graph.components.has(inst.instanceOf)) {
      add(`instance "${inst.name}" runs component ${inst.instanceOf}, which cannot be found`);
    }
  }
  const edges: [number, number][] = [];
  for (const link of c.links) {
    const from = endpoint(c, graph, link.fromInstance, link.fromPort, 'from', index);
    const to = endpoint(c, graph, link.toInstance, link.toPort, 'to', index);
    for (const e of [from, to]) if (typeof e === 'string') add(`link "${link.name}" ${e}`);
    if (typeof from === 'number' && typeof to === 'number' && from >= 0 && to >= 0) edges.push([from, to]);
  }
  const order = topologicalOrder(c.instances.length, edges);
  if (!order.ok) {
    const cycle = order.cycle.map((i) => c.instances[i]?.name ?? '?');
    add(`its links make a cycle: ${cycle.join(' → ')}`);
    return null;
  }
  return order.order;
}

/** The instance index a link end names (-1 for the component's own port), or the problem with it. */
function endpoint(
  c: Definition,
  graph: Checked,
  instance: string,
  port: string,
  side: 'from' | 'to',
  index: Map<string, number>,
): number | string {
  if (!instance) {
    const ports = side === 'from' ? c.inputs : c.outputs;
    if (!ports.some((p) => p.name === port))
      return `cannot find port "${port}" among the component's ${side === 'from' ? 'inputs' : 'outputs'}`;
    return -1;
  }
  const i = index.get(instance);
  if (i === undefined) return `cannot find instance "${instance}"`;
  const target = graph.components.get(c.instances[i]?.instanceOf ?? '');
  if (!target) return -2;
  const ports = side === 'from' ? target.outputs : target.inputs;
  if (!ports.some((p) => p.name === port)) {
    return `cannot find port "${port}" among the ${side === 'from' ? 'outputs' : 'inputs'} of instance "${instance}"`;
  }
  return i;
}

/** Kahn's algorithm, stable in declaration order; on a cycle, one cycle's instances. */
function topologicalOrder(
  count: number,
  edges: readonly [number, number][],
): { ok: true; order: number[] } | { ok: false; cycle: number[] } {
  const indegree = new Array<number>(count).fill(0);
  const next: number[][] = Array.from({ length: count }, () => []);
  for (const [a, b] of edges) {
    next[a]?.push(b);
    indegree[b] = (indegree[b] ?? 0) + 1;
  }
  const order: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < count; i++) if (indegree[i] === 0) ready.push(i);
  while (ready.length > 0) {
    ready.sort((x, y) => x - y);
    const i = ready.shift() ?? 0;
    order.push(i);
    for (const j of next[i] ?? []) {
      indegree[j] = (indegree[j] ?? 0) - 1;
      if (indegree[j] === 0) ready.push(j);
    }
  }
  if (order.length === count) return { ok: true, order };
  return { ok: false, cycle: findCycle(count, next, new Set(order)) };
}

function findCycle(count: number, next: number[][], done: Set<number>): number[] {
  const state = new Array<number>(count).fill(0);
  const stack: number[] = [];
  const visit = (i: number): number[] | null => {
    state[i] = 1;
    stack.push(i);
    for (const j of next[i] ?? []) {
      if (done.has(j)) continue;
      if (state[j] === 1) return [...stack.slice(stack.indexOf(j)), j];
      if (state[j] === 0) {
        const found = visit(j);
        if (found) return found;
      }
    }
    stack.pop();
    state[i] = 2;
    return null;
  };
  for (let i = 0; i < count; i++) {
    if (!done.has(i) && state[i] === 0) {
      const found = visit(i);
      if (found) return found;
    }
  }
  return [];
}

/** A component may not instantiate itself, directly or through the components it uses. */
function checkRecursion(graph: ComponentGraph, problems: Problem[]): void {
  const ids = [...graph.components.keys()];
  const position = new Map(ids.map((id, i) => [id, i]));
  const edges: [number, number][] = [];
  for (const c of graph.components.values()) {
    for (const inst of c.instances) {
      const to = position.get(inst.instanceOf);
      const from = position.get(c._id);
      if (to !== undefined && from !== undefined && (c.kind === 'workflow' || c.kind === 'forEach')) edges.push([from, to]);
    }
  }
  const result = topologicalOrder(ids.length, edges);
  if (result.ok) return;
  const chain = result.cycle.map((i) => graph.components.get(ids[i] ?? ''));
  const first = chain[0];
  if (!first) return;
  problems.push({
    component: first.name,
    message: `${label(first)} instantiates itself: ${chain.map((c) => (c ? `${c.name} v${c.version}` : '?')).join(' → ')}`,
  });
}
