// Definitions: the compiler's object literals (codegen.ts) become runnable components, SDK
// functions, the modules the data model checks need, and the data models with their validators.
import { applyFn, assign, bindFn, defineProperty, freeze, hasOwn, RunError } from './base.ts';
import { runCode, runForEach, runWorkflow } from './runner.ts';
import type {
  Arrival,
  CheckedPort,
  ComponentSpec,
  Def,
  Graph,
  GraphSpec,
  Instance,
  Model,
  ModelName,
  Module,
  ModuleFactory,
  Port,
  PortSpec,
  Require,
  Target,
} from './types.d.ts';

function port(p: PortSpec, model: Model | null, each: boolean): Port {
  return { name: p.name, join: !!p.join, fork: !!p.fork, each: !!model && each, model };
}

function hasModel(p: Port): p is CheckedPort {
  return p.model !== null;
}

export function component(spec: ComponentSpec): Def {
  const arrayPorts = spec.kind === 'forEach';
  const iteratedIndex = arrayPorts
    ? Math.max(
        0,
        spec.inputs.findIndex((p) => p.fork),
      )
    : -1;
  const inputs = spec.inputs.map((p, i) =>
    port(p, p.model || null, !!(p.join || p.fork || p.inputIsJoin || i === iteratedIndex)),
  );
  const outputs = spec.outputs.map((p) => port(p, p.model || null, !!(p.join || p.fork || arrayPorts)));
  const def: Def = {
    id: spec.id,
    name: spec.name,
    version: spec.version,
    kind: spec.kind,
    inputs,
    outputs,
    checkedInputs: inputs.filter(hasModel),
    outputChecks: outputs.filter(hasModel),
    // A forEach without input ports fails below.
    iterated: iteratedIndex >= 0 ? (inputs[iteratedIndex] as Port) : null,
    run: spec.kind === 'workflow' ? runWorkflow : spec.kind === 'forEach' ? runForEach : runCode,
    code: spec.code || null,
    codeLines: spec.codeLines || null,
    sdk: freeze(assign({}, spec.sdk || {})),
    graph: null,
  };
  if (spec.kind === 'forEach' && inputs.length === 0)
    throw new RunError(`Component "${spec.name}": a forEach needs an input port`);
  if (spec.kind === 'workflow' || spec.kind === 'forEach') def.graph = graph(def, spec);
  return def;
}

function graph(def: Def, spec: GraphSpec): Graph {
  let slotCount = 0;
  const instances: Instance[] = spec.instances.map((inst) => {
    const slot = slotCount;
    slotCount += inst.component.inputs.length;
    return {
      name: inst.name,
      def: inst.component,
      slot,
      linked: inst.component.inputs.map(() => false),
      targets: inst.component.outputs.map(() => []),
      inputChecks: inst.component.checkedInputs,
    };
  });
  const outSlot = slotCount;
  slotCount += def.outputs.length;
  const incoming: Arrival[][] = [];
  const byName = new Map(instances.map((inst, i) => [inst.name, i]));
  const ownTargets: Target[][] = def.inputs.map(() => []);
  // The compiler names only instances and ports that exist (the build checks them).
  for (const link of spec.links) {
    const from = link.from[0] === '' ? -1 : (byName.get(link.from[0]) as number);
    const to = link.to[0] === '' ? -1 : (byName.get(link.to[0]) as number);
    const source = from < 0 ? null : (instances[from] as Instance);
    const sink = to < 0 ? null : (instances[to] as Instance);
    const fromPorts = source === null ? def.inputs : source.def.outputs;
    const toPorts = sink === null ? def.outputs : sink.def.inputs;
    const fromPort = fromPorts.findIndex((p) => p.name === link.from[1]);
    const toPort = toPorts.findIndex((p) => p.name === link.to[1]);
    const slot = (sink === null ? outSlot : sink.slot) + toPort;
    const target: Target = { slot, map: link.map || null, link: link.name, lines: link.codeLines || null };
    const sources = (source === null ? ownTargets : source.targets)[fromPort] as Target[];
    sources.push(target);
    if (sink !== null) sink.linked[toPort] = true;
    const arriving = incoming[target.slot] || [];
    arriving.push({ sources, model: (fromPorts[fromPort] as Port).model, map: target.map });
    incoming[target.slot] = arriving;
  }
  // A port need not check again what arrives unchanged, and unshared, from a port with the
  // same data model: it was checked when it left that port (or entered this component).
  const trusted = (slot: number, port: CheckedPort) =>
    port.model !== null &&
    incoming[slot]?.every((a) => a.map === null && a.model === port.model && a.sources.length === 1) === true;
  for (const inst of instances) {
    inst.inputChecks = inst.def.checkedInputs.filter((port) => !trusted(inst.slot + inst.def.inputs.indexOf(port), port));
  }
  def.outputChecks = def.outputChecks.filter((port) => !trusted(outSlot + def.outputs.indexOf(port), port));
  return { instances, order: spec.order, ownTargets, slotCount, outSlot };
}

/**
 * An SDK function as components receive it: a bound copy, whose text reads as native code, so a
 * component (a manager's) cannot read the source that the SDK routes keep from managers.
 */
export function sdkFunction(name: string, fn: unknown): (...args: unknown[]) => unknown {
  if (typeof fn !== 'function') throw new RunError(`SDK function "${name}": its code must be a function`);
  const callable = applyFn(bindFn, fn, [undefined]) as (...args: unknown[]) => unknown;
  defineProperty(callable, 'name', { value: name });
  return callable;
}

/** CommonJS modules (the data model checks', an SDK function's npm modules), evaluated on first use in a run. */
export function modules(table: Record<string, ModuleFactory>, owner = 'a component program'): Require {
  const cache = new Map<string, Module>();
  const require: Require = (name) => {
    if (cache.has(name)) return (cache.get(name) as Module).exports;
    const factory = hasOwn(table, name) ? table[name] : undefined;
    if (typeof factory !== 'function') throw new RunError(`Module "${name}" is not available in ${owner}`);
    const module: Module = { exports: {} };
    cache.set(name, module);
    factory(module, module.exports, require);
    return module.exports;
  };
  return require;
}

/** The data models by export name, each with its validator. */
export function models(factory: ModuleFactory, require: Require, names: Record<string, ModelName>): Record<string, Model> {
  const module: Module = { exports: {} };
  factory(module, module.exports, require);
  const out: Record<string, Model> = {};
  for (const key of Object.keys(names)) {
    out[key] = freeze(assign({ validate: module.exports[key] }, names[key])) as Model;
  }
  return out;
}
