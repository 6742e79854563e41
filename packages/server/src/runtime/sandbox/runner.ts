// Running a component of any kind (docs/product.md §16.2). Each step answers a value when
// everything it ran was synchronous, and a promise as soon as something awaited: code without
// `await` then costs no promise and no microtask turn.
import { isArray } from './base.ts';
import { checkPorts, codeError, fail } from './failures.ts';
import type {
  CheckedPort,
  CodeFn,
  Ctx,
  Def,
  Env,
  Frame,
  Graph,
  GraphState,
  Instance,
  Output,
  Port,
  Target,
  Values,
} from './types.d.ts';

const PromiseCtor = Promise;
const isPromise = (value: unknown): value is Promise<unknown> => value instanceof PromiseCtor;

// `inputChecks` are the input ports to check: all those with a data model, less those whose
// values provably arrive checked already (see `trusted` in definitions.ts).
export function invoke(def: Def, input: Values, env: Env, frame: Frame, inputChecks: CheckedPort[]): Output {
  if (env.check && (inputChecks.length > 0 || def.outputChecks.length > 0))
    return invokeChecked(def, input, env, frame, inputChecks);
  return def.run(def, input, env, frame);
}

function invokeChecked(def: Def, input: Values, env: Env, frame: Frame, inputChecks: CheckedPort[]): Output {
  if (inputChecks.length > 0) checkPorts(def, frame, inputChecks, 'input', input);
  const output = def.run(def, input, env, frame);
  if (isPromise(output)) return output.then((value) => checkedOutput(def, frame, value));
  return checkedOutput(def, frame, output);
}

function checkedOutput(def: Def, frame: Frame, output: Values): Values {
  if (def.outputChecks.length > 0) checkPorts(def, frame, def.outputChecks, 'output', output);
  return output;
}

/** An instruction or function (`def.code` is set). */
export function runCode(def: Def, input: Values, env: Env, frame: Frame): Output {
  const ctx: Ctx = { input, output: {}, rt_context: env.rt, log: env.log };
  let result: unknown;
  try {
    result = (def.code as CodeFn)(ctx, def.sdk);
  } catch (error) {
    throw codeError(error, def, frame, '', def.codeLines);
  }
  if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') {
    return settleCode(def, ctx, result, env, frame);
  }
  return codeOutput(def, ctx, result, env, frame);
}

async function settleCode(def: Def, ctx: Ctx, pending: unknown, env: Env, frame: Frame): Promise<Values> {
  let result: unknown;
  try {
    result = await pending;
  } catch (error) {
    throw codeError(error, def, frame, '', def.codeLines);
  }
  return codeOutput(def, ctx, result, env, frame);
}

function codeOutput(def: Def, ctx: Ctx, result: unknown, env: Env, frame: Frame): Values {
  env.rt = ctx.rt_context;
  if (def.kind === 'function') {
    const output: Values = {};
    if (def.outputs.length > 0 && result !== undefined) output[(def.outputs[0] as Port).name] = result;
    return output;
  }
  if (ctx.output === null || typeof ctx.output !== 'object') throw fail(def, frame, 'ctx.output must stay an object');
  return ctx.output as Values;
}

export function runWorkflow(def: Def, input: Values, env: Env, frame: Frame): Output {
  // Without a list to collect into, the graph answers its output.
  return runGraph(def, input, env, frame, null, undefined, null) as Output;
}

/** A forEach (`def.iterated` is set). */
export function runForEach(def: Def, input: Values, env: Env, frame: Frame): Output {
  const port = def.iterated as Port;
  const list = input[port.name];
  const collected = def.outputs.map((): unknown[] => []);
  if (list === undefined || list === null) return collectedOutput(def, collected);
  if (!isArray(list)) throw fail(def, frame, `input port "${port.name}" needs an array to run once per element`);
  // Runs are sequential, so the frame can carry the element being worked on.
  for (let i = 0; i < list.length; i++) {
    frame.index = i;
    const done = runGraph(def, input, env, frame, port, list[i], collected);
    if (isPromise(done)) return forEachAsync(def, input, env, frame, list, collected, i, done);
  }
  frame.index = -1;
  return collectedOutput(def, collected);
}

async function forEachAsync(
  def: Def,
  input: Values,
  env: Env,
  frame: Frame,
  list: unknown[],
  collected: unknown[][],
  i: number,
  pending: Promise<unknown>,
): Promise<Values> {
  await pending;
  for (let next = i + 1; next < list.length; next++) {
    frame.index = next;
    const done = runGraph(def, input, env, frame, def.iterated, list[next], collected);
    if (isPromise(done)) await done;
  }
  frame.index = -1;
  return collectedOutput(def, collected);
}

function collectedOutput(def: Def, collected: unknown[][]): Values {
  const output: Values = {};
  for (let o = 0; o < collected.length; o++) output[(def.outputs[o] as Port).name] = collected[o];
  return output;
}

// Messages waiting on a port: nothing (undefined), one value, or several in a Many.
class Many {
  list: unknown[];
  constructor(first: unknown, second: unknown) {
    this.list = [first, second];
  }
}

function put(slots: unknown[], i: number, value: unknown): void {
  const current = slots[i];
  if (current === undefined) slots[i] = value;
  else if (current instanceof Many) current.list.push(value);
  else slots[i] = new Many(current, value);
}

function countOf(slot: unknown): number {
  if (slot === undefined) return 0;
  return slot instanceof Many ? slot.list.length : 1;
}

function listOf(slot: unknown): unknown[] {
  if (slot === undefined) return [];
  return slot instanceof Many ? slot.list : [slot];
}

/** The frame of an instance inside a frame, made once per run and reused. */
function childFrame(frame: Frame, i: number, inst: Instance): Frame {
  if (frame.kids === null) frame.kids = [];
  let kid = frame.kids[i];
  if (kid === undefined) {
    kid = { parent: frame, def: inst.def, instance: inst.name, index: -1, kids: null };
    frame.kids[i] = kid;
  }
  return kid;
}

// A workflow's graph: instances run in an order where every producer comes before its
// consumers; messages travel along links; a join port gathers, a fork port spreads.
// Inside a forEach, `iterated` is the array port and `element` its current element, and the
// outputs are pushed onto `collect` instead of being answered.
function runGraph(
  def: Def,
  input: Values,
  env: Env,
  frame: Frame,
  iterated: Port | null,
  element: unknown,
  collect: unknown[][] | null,
): Values | null | Promise<Values | null> {
  const g = def.graph as Graph;
  const state: GraphState = { slots: new Array(g.slotCount), env, def, frame, collect };
  for (let p = 0; p < def.inputs.length; p++) {
    const targets = g.ownTargets[p] as Target[];
    if (targets.length === 0) continue;
    const port = def.inputs[p] as Port;
    const own = port === iterated;
    const value = own ? element : input[port.name];
    if (value !== undefined) emit(state, targets, port.fork && !own, value, port.name, null);
  }
  const order = g.order;
  for (let k = 0; k < order.length; k++) {
    const at = order[k] as number;
    const inst = g.instances[at] as Instance;
    const runs = runCount(inst, state.slots, def, frame);
    for (let r = 0; r < runs; r++) {
      const out = invoke(inst.def, gather(inst, state.slots, r), env, childFrame(frame, at, inst), inst.inputChecks);
      if (isPromise(out)) return graphAsync(state, k, r, out);
      deliver(state, inst, out);
    }
  }
  return graphOutput(state);
}

async function graphAsync(state: GraphState, k: number, r: number, pending: Promise<Values>): Promise<Values | null> {
  const g = state.def.graph as Graph;
  const order = g.order;
  deliver(state, g.instances[order[k] as number] as Instance, await pending);
  let from = r + 1;
  for (; k < order.length; k++, from = 0) {
    const at = order[k] as number;
    const inst = g.instances[at] as Instance;
    const runs = runCount(inst, state.slots, state.def, state.frame);
    for (let run = from; run < runs; run++) {
      let out = invoke(inst.def, gather(inst, state.slots, run), state.env, childFrame(state.frame, at, inst), inst.inputChecks);
      if (isPromise(out)) out = await out;
      deliver(state, inst, out);
    }
  }
  return graphOutput(state);
}

/** ctx.input of one run of an instance: join ports get every message, others their r-th (or only) one. */
function gather(inst: Instance, slots: unknown[], r: number): Values {
  const ports = inst.def.inputs;
  const values: Values = {};
  for (let p = 0; p < ports.length; p++) {
    if (!inst.linked[p]) continue;
    const slot = slots[inst.slot + p];
    const port = ports[p] as Port;
    if (port.join) values[port.name] = listOf(slot);
    else if (slot !== undefined) values[port.name] = slot instanceof Many ? slot.list[r] : slot;
  }
  return values;
}

function deliver(state: GraphState, inst: Instance, out: Values): void {
  const outputs = inst.def.outputs;
  for (let o = 0; o < outputs.length; o++) {
    const port = outputs[o] as Port;
    const targets = inst.targets[o] as Target[];
    const value = out[port.name];
    if (value !== undefined && targets.length > 0) emit(state, targets, port.fork, value, port.name, inst);
  }
}

function graphOutput(state: GraphState): Values | null {
  const { def, frame, collect, slots } = state;
  const outSlot = (def.graph as Graph).outSlot;
  const output: Values | null = collect === null ? {} : null;
  for (let o = 0; o < def.outputs.length; o++) {
    const port = def.outputs[o] as Port;
    const slot = slots[outSlot + o];
    let value: unknown;
    if (port.join) value = listOf(slot);
    else if (slot === undefined) continue;
    else if (slot instanceof Many) {
      throw fail(
        def,
        frame,
        `output port "${port.name}" received ${slot.list.length} values; make it a join port to gather them`,
      );
    } else value = slot;
    if (output === null) ((collect as unknown[][])[o] as unknown[]).push(value);
    else output[port.name] = value;
  }
  return output;
}

/** How many times an instance runs: once, once per message of its forked inputs, or not at all. */
function runCount(inst: Instance, slots: unknown[], def: Def, frame: Frame): number {
  let runs = 1;
  let spread = '';
  const ports = inst.def.inputs;
  for (let p = 0; p < ports.length; p++) {
    const port = ports[p] as Port;
    if (!inst.linked[p] || port.join) continue;
    const count = countOf(slots[inst.slot + p]);
    if (count === 0) return 0;
    if (count === 1) continue;
    if (spread === '') {
      runs = count;
      spread = port.name;
    } else if (count !== runs) {
      throw fail(
        def,
        frame,
        `instance "${inst.name}" received ${runs} values on port "${spread}" and ${count} on port "${port.name}"; make one of them a join port`,
      );
    }
  }
  return runs;
}

function emit(
  state: GraphState,
  targets: Target[],
  fork: boolean,
  value: unknown,
  portName: string,
  inst: Instance | null,
): void {
  if (!fork) {
    send(state, targets, value);
    return;
  }
  if (!isArray(value)) {
    const where = inst === null ? `input port "${portName}"` : `output port "${portName}" of instance "${inst.name}"`;
    throw fail(state.def, state.frame, `${where} is a fork port but its value is not an array`);
  }
  for (let i = 0; i < value.length; i++) send(state, targets, value[i]);
}

function send(state: GraphState, targets: Target[], value: unknown): void {
  for (let t = 0; t < targets.length; t++) {
    const target = targets[t] as Target;
    let v = value;
    if (target.map !== null) {
      try {
        v = target.map(value, state.env.rt);
      } catch (error) {
        throw codeError(error, state.def, state.frame, `, link "${target.link}"`, target.lines);
      }
      if (v === undefined) continue;
      if (v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function') {
        throw fail(state.def, state.frame, `link "${target.link}" returned a promise; link code maps a value synchronously`);
      }
    }
    put(state.slots, target.slot, v);
  }
}
