// @ts-check
// Runtime library of a component program. The compiler puts it at the top of every program; it
// runs inside an isolated-vm isolate, never in the server. It turns the component definitions
// below it into runnable functions (docs/product.md §16.2) and answers the run as JSON text. It is loaded as
// it is written; its types (types.d.ts) are in comments, checked with the server's code.
/**
 * @import { Answer, Arrival, CheckedPort, CodeFn, CodedColumn, ColumnTable, ComponentSpec, CsvFile,
 *   AppendRows, Ctx, Def, Emit, Entry, Env, Frame, Graph, GraphSpec, GraphState, Instance, Lines, Log, Logger,
 *   LogEntry, LogLevel, Model, ModelName, Module, ModuleFactory, Output, PieceSender, Port,
 *   PortSpec, Require, RowWalk, RunFn, RunOptions, Target, Values } from './types.d.ts'
 */
const __gdb = (() => {
  // Captured before any component code runs, so a component that replaces them cannot change how
  // the run reads its payload or writes its answer.
  const parseJson = JSON.parse;
  const toJson = JSON.stringify;
  const isArray = Array.isArray;
  const assign = Object.assign;
  const freeze = Object.freeze;
  const keysOf = Object.keys;
  const defineProperty = Object.defineProperty;
  const hasOwn = Object.hasOwn;
  const FunctionCtor = Function;
  const bindFn = FunctionCtor.prototype.bind;
  const applyFn = Reflect.apply;
  const floor = Math.floor;
  const round = Math.round;
  const max = Math.max;
  const ceil = Math.ceil;
  /** Rows written ahead to size a CSV file's buffer. */
  const CSV_SAMPLE_ROWS = 256;
  const DateCtor = Date;
  const ErrorCtor = Error;
  const PROGRAM_FILE = 'gdb-program.js';

  /** A failure the run reports as it is: its message already names the component and port. */
  class RunError extends ErrorCtor {
    /**
     * `kind` is 'output' when the answer itself is the problem (too large, not JSON).
     * @param {string} message
     * @param {Answer['failure']} [kind]
     */
    constructor(message, kind = 'code') {
      super(message);
      this.name = 'RunError';
      this.kind = kind;
    }
  }

  // ── where a run is: frames are cheap objects, turned into text only when something fails ──

  /** @param {Def} def @returns {Frame} */
  function rootFrame(def) {
    return { parent: null, def, instance: null, index: -1, kids: null };
  }

  /** @param {Frame} frame */
  function path(frame) {
    const parts = [];
    for (let f = /** @type {Frame | null} */ (frame); f !== null; f = f.parent) {
      const label = f.instance === null ? f.def.name : f.instance;
      parts.push(f.index >= 0 ? `${label}[${f.index}]` : label);
    }
    return parts.reverse().join(' › ');
  }

  /** @param {Def} def @param {Frame} frame */
  function who(def, frame) {
    const at = frame.parent === null && frame.index < 0 ? '' : ` at ${path(frame)}`;
    return `Component "${def.name}" v${def.version}${at}`;
  }

  /** @param {Def} def @param {Frame} frame @param {string} message */
  function fail(def, frame, message) {
    return new RunError(`${who(def, frame)}: ${message}`);
  }

  /**
   * The line of the component's own code an error comes from, read from the stack.
   * @param {unknown} error @param {Lines | null} lines
   */
  function codeLine(error, lines) {
    const stack = error !== null && typeof error === 'object' ? /** @type {{ stack?: unknown }} */ (error).stack : undefined;
    if (typeof stack !== 'string' || !lines) return '';
    const re = new RegExp(`${PROGRAM_FILE}:(\\d+):(\\d+)`, 'g');
    for (let m = re.exec(stack); m !== null; m = re.exec(stack)) {
      const line = Number(m[1]);
      if (line >= lines[0] && line <= lines[1]) return ` (line ${line - lines[0] + 1} of its code)`;
    }
    return '';
  }

  /** @param {unknown} error @returns {string} */
  function errorText(error) {
    if (error instanceof RunError) return error.message;
    if (error instanceof ErrorCtor) return `${error.name}: ${error.message}`;
    try {
      return `Thrown: ${typeof error === 'string' ? error : toJson(error)}`;
    } catch {
      return 'Thrown: a value that cannot be shown';
    }
  }

  /** @param {unknown} error @param {Def} def @param {Frame} frame @param {string} what @param {Lines | null} lines */
  function codeError(error, def, frame, what, lines) {
    if (error instanceof RunError) return error;
    return new RunError(`${who(def, frame)}${what}: ${errorText(error)}${codeLine(error, lines)}`);
  }

  // ── logs: bounded in count and size, whatever the code writes ──

  /** @param {RunOptions} limits @returns {Logger} */
  function createLogger(limits) {
    /** @type {LogEntry[]} */
    const entries = [];
    let chars = 0;
    let dropped = 0;
    /** @param {unknown} value @returns {string} */
    const text = (value) => {
      if (typeof value === 'string') return value;
      if (value instanceof ErrorCtor) return value.stack || `${value.name}: ${value.message}`;
      if (value === undefined) return 'undefined';
      try {
        return toJson(value) ?? String(value);
      } catch {
        return String(value);
      }
    };
    /** @param {LogLevel} level @param {unknown[]} args */
    const add = (level, args) => {
      if (entries.length >= limits.maxLogEntries || chars >= limits.maxLogChars) {
        dropped += 1;
        return;
      }
      let message = '';
      for (let i = 0; i < args.length && message.length <= limits.maxLogEntryChars; i++) {
        message += (i ? ' ' : '') + text(args[i]);
      }
      if (message.length > limits.maxLogEntryChars) message = `${message.slice(0, limits.maxLogEntryChars)}…`;
      chars += message.length;
      entries.push({ level, message, date: new DateCtor().toISOString() });
    };
    const log = /** @type {Log} */ ((...args) => add('info', args));
    log.info = (...args) => add('info', args);
    log.warn = (...args) => add('warn', args);
    log.error = (...args) => add('error', args);
    log.success = (...args) => add('success', args);
    const console = freeze({ log: log.info, info: log.info, debug: log.info, warn: log.warn, error: log.error });
    return {
      log: freeze(log),
      console,
      entries() {
        if (dropped > 0) {
          entries.push({
            level: 'warn',
            message: `${dropped} more log entries were dropped (at most ${limits.maxLogEntries} entries and ${limits.maxLogChars} characters per run).`,
            date: new DateCtor().toISOString(),
          });
          dropped = 0;
        }
        return entries;
      },
    };
  }

  // ── data model checks (ajv standalone validators) ──

  /** @param {Def} def @param {Frame} frame @param {CheckedPort} port @param {string} direction @param {unknown} value */
  function checkValue(def, frame, port, direction, value) {
    const model = port.model;
    if (port.each) {
      if (!isArray(value)) {
        throw fail(
          def,
          frame,
          `${direction} port "${port.name}" needs an array: its data model "${model.name}" describes each element`,
        );
      }
      for (let i = 0; i < value.length; i++) {
        if (!model.validate(value[i])) throw modelError(def, frame, port, direction, `/${i}`);
      }
    } else if (!model.validate(value)) {
      throw modelError(def, frame, port, direction, '');
    }
  }

  /** @param {Def} def @param {Frame} frame @param {CheckedPort} port @param {string} direction @param {string} prefix */
  function modelError(def, frame, port, direction, prefix) {
    const first = (port.model.validate.errors || [])[0];
    const at = `${prefix}${first ? first.instancePath : ''}` || '/';
    const why = first ? first.message : 'is invalid';
    return fail(
      def,
      frame,
      `${direction} port "${port.name}": the value does not match data model "${port.model.name}" v${port.model.version} at ${at}: ${why}`,
    );
  }

  /** @param {Def} def @param {Frame} frame @param {CheckedPort[]} ports @param {string} direction @param {Values} values */
  function checkPorts(def, frame, ports, direction, values) {
    for (let p = 0; p < ports.length; p++) {
      const port = /** @type {CheckedPort} */ (ports[p]);
      const value = values[port.name];
      if (value !== undefined) checkValue(def, frame, port, direction, value);
    }
  }

  // ── running a component of any kind ──
  // Each step answers a value when everything it ran was synchronous, and a promise as soon as
  // something awaited: code without `await` then costs no promise and no microtask turn.

  const PromiseCtor = Promise;
  /** @param {unknown} value @returns {value is Promise<unknown>} */
  const isPromise = (value) => value instanceof PromiseCtor;

  // `inputChecks` are the input ports to check: all those with a data model, less those whose
  // values provably arrive checked already (see `trusted` below).
  /** @param {Def} def @param {Values} input @param {Env} env @param {Frame} frame @param {CheckedPort[]} inputChecks @returns {Output} */
  function invoke(def, input, env, frame, inputChecks) {
    if (env.check && (inputChecks.length > 0 || def.outputChecks.length > 0))
      return invokeChecked(def, input, env, frame, inputChecks);
    return def.run(def, input, env, frame);
  }

  /** @param {Def} def @param {Values} input @param {Env} env @param {Frame} frame @param {CheckedPort[]} inputChecks @returns {Output} */
  function invokeChecked(def, input, env, frame, inputChecks) {
    if (inputChecks.length > 0) checkPorts(def, frame, inputChecks, 'input', input);
    const output = def.run(def, input, env, frame);
    if (isPromise(output)) return output.then((value) => checkedOutput(def, frame, value));
    return checkedOutput(def, frame, output);
  }

  /** @param {Def} def @param {Frame} frame @param {Values} output */
  function checkedOutput(def, frame, output) {
    if (def.outputChecks.length > 0) checkPorts(def, frame, def.outputChecks, 'output', output);
    return output;
  }

  /** An instruction or function (`def.code` is set). @type {RunFn} */
  function runCode(def, input, env, frame) {
    /** @type {Ctx} */
    const ctx = { input, output: {}, rt_context: env.rt, log: env.log };
    let result;
    try {
      result = /** @type {CodeFn} */ (def.code)(ctx, def.sdk);
    } catch (error) {
      throw codeError(error, def, frame, '', def.codeLines);
    }
    if (
      result !== null &&
      typeof result === 'object' &&
      typeof (/** @type {{ then?: unknown }} */ (result).then) === 'function'
    ) {
      return settleCode(def, ctx, result, env, frame);
    }
    return codeOutput(def, ctx, result, env, frame);
  }

  /** @param {Def} def @param {Ctx} ctx @param {unknown} pending @param {Env} env @param {Frame} frame */
  async function settleCode(def, ctx, pending, env, frame) {
    let result;
    try {
      result = await pending;
    } catch (error) {
      throw codeError(error, def, frame, '', def.codeLines);
    }
    return codeOutput(def, ctx, result, env, frame);
  }

  /** @param {Def} def @param {Ctx} ctx @param {unknown} result @param {Env} env @param {Frame} frame @returns {Values} */
  function codeOutput(def, ctx, result, env, frame) {
    env.rt = ctx.rt_context;
    if (def.kind === 'function') {
      /** @type {Values} */
      const output = {};
      if (def.outputs.length > 0 && result !== undefined) output[/** @type {Port} */ (def.outputs[0]).name] = result;
      return output;
    }
    if (ctx.output === null || typeof ctx.output !== 'object') throw fail(def, frame, 'ctx.output must stay an object');
    return /** @type {Values} */ (ctx.output);
  }

  /** @type {RunFn} */
  function runWorkflow(def, input, env, frame) {
    // Without a list to collect into, the graph answers its output.
    return /** @type {Output} */ (runGraph(def, input, env, frame, null, undefined, null));
  }

  /** A forEach (`def.iterated` is set). @type {RunFn} */
  function runForEach(def, input, env, frame) {
    const port = /** @type {Port} */ (def.iterated);
    const list = input[port.name];
    const collected = def.outputs.map(() => /** @type {unknown[]} */ ([]));
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

  /**
   * @param {Def} def @param {Values} input @param {Env} env @param {Frame} frame @param {unknown[]} list
   * @param {unknown[][]} collected @param {number} i @param {Promise<unknown>} pending
   */
  async function forEachAsync(def, input, env, frame, list, collected, i, pending) {
    await pending;
    for (let next = i + 1; next < list.length; next++) {
      frame.index = next;
      const done = runGraph(def, input, env, frame, def.iterated, list[next], collected);
      if (isPromise(done)) await done;
    }
    frame.index = -1;
    return collectedOutput(def, collected);
  }

  /** @param {Def} def @param {unknown[][]} collected */
  function collectedOutput(def, collected) {
    /** @type {Values} */
    const output = {};
    for (let o = 0; o < collected.length; o++) output[/** @type {Port} */ (def.outputs[o]).name] = collected[o];
    return output;
  }

  // Messages waiting on a port: nothing (undefined), one value, or several in a Many.
  class Many {
    /** @param {unknown} first @param {unknown} second */
    constructor(first, second) {
      this.list = [first, second];
    }
  }

  /** @param {unknown[]} slots @param {number} i @param {unknown} value */
  function put(slots, i, value) {
    const current = slots[i];
    if (current === undefined) slots[i] = value;
    else if (current instanceof Many) current.list.push(value);
    else slots[i] = new Many(current, value);
  }

  /** @param {unknown} slot */
  function countOf(slot) {
    if (slot === undefined) return 0;
    return slot instanceof Many ? slot.list.length : 1;
  }

  /** @param {unknown} slot */
  function listOf(slot) {
    if (slot === undefined) return [];
    return slot instanceof Many ? slot.list : [slot];
  }

  /**
   * The frame of an instance inside a frame, made once per run and reused.
   * @param {Frame} frame @param {number} i @param {Instance} inst
   */
  function childFrame(frame, i, inst) {
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
  /**
   * @param {Def} def @param {Values} input @param {Env} env @param {Frame} frame @param {Port | null} iterated
   * @param {unknown} element @param {unknown[][] | null} collect @returns {Values | null | Promise<Values | null>}
   */
  function runGraph(def, input, env, frame, iterated, element, collect) {
    const g = /** @type {Graph} */ (def.graph);
    /** @type {GraphState} */
    const state = { slots: new Array(g.slotCount), env, def, frame, collect };
    for (let p = 0; p < def.inputs.length; p++) {
      const targets = /** @type {Target[]} */ (g.ownTargets[p]);
      if (targets.length === 0) continue;
      const port = /** @type {Port} */ (def.inputs[p]);
      const own = port === iterated;
      const value = own ? element : input[port.name];
      if (value !== undefined) emit(state, targets, port.fork && !own, value, port.name, null);
    }
    const order = g.order;
    for (let k = 0; k < order.length; k++) {
      const at = /** @type {number} */ (order[k]);
      const inst = /** @type {Instance} */ (g.instances[at]);
      const runs = runCount(inst, state.slots, def, frame);
      for (let r = 0; r < runs; r++) {
        const out = invoke(inst.def, gather(inst, state.slots, r), env, childFrame(frame, at, inst), inst.inputChecks);
        if (isPromise(out)) return graphAsync(state, k, r, out);
        deliver(state, inst, out);
      }
    }
    return graphOutput(state);
  }

  /** @param {GraphState} state @param {number} k @param {number} r @param {Promise<Values>} pending */
  async function graphAsync(state, k, r, pending) {
    const g = /** @type {Graph} */ (state.def.graph);
    const order = g.order;
    deliver(state, /** @type {Instance} */ (g.instances[/** @type {number} */ (order[k])]), await pending);
    let from = r + 1;
    for (; k < order.length; k++, from = 0) {
      const at = /** @type {number} */ (order[k]);
      const inst = /** @type {Instance} */ (g.instances[at]);
      const runs = runCount(inst, state.slots, state.def, state.frame);
      for (let run = from; run < runs; run++) {
        let out = invoke(
          inst.def,
          gather(inst, state.slots, run),
          state.env,
          childFrame(state.frame, at, inst),
          inst.inputChecks,
        );
        if (isPromise(out)) out = await out;
        deliver(state, inst, out);
      }
    }
    return graphOutput(state);
  }

  /**
   * ctx.input of one run of an instance: join ports get every message, others their r-th (or only) one.
   * @param {Instance} inst @param {unknown[]} slots @param {number} r
   */
  function gather(inst, slots, r) {
    const ports = inst.def.inputs;
    /** @type {Values} */
    const values = {};
    for (let p = 0; p < ports.length; p++) {
      if (!inst.linked[p]) continue;
      const slot = slots[inst.slot + p];
      const port = /** @type {Port} */ (ports[p]);
      if (port.join) values[port.name] = listOf(slot);
      else if (slot !== undefined) values[port.name] = slot instanceof Many ? slot.list[r] : slot;
    }
    return values;
  }

  /** @param {GraphState} state @param {Instance} inst @param {Values} out */
  function deliver(state, inst, out) {
    const outputs = inst.def.outputs;
    for (let o = 0; o < outputs.length; o++) {
      const port = /** @type {Port} */ (outputs[o]);
      const targets = /** @type {Target[]} */ (inst.targets[o]);
      const value = out[port.name];
      if (value !== undefined && targets.length > 0) emit(state, targets, port.fork, value, port.name, inst);
    }
  }

  /** @param {GraphState} state @returns {Values | null} */
  function graphOutput(state) {
    const { def, frame, collect, slots } = state;
    const outSlot = /** @type {Graph} */ (def.graph).outSlot;
    /** @type {Values | null} */
    const output = collect === null ? {} : null;
    for (let o = 0; o < def.outputs.length; o++) {
      const port = /** @type {Port} */ (def.outputs[o]);
      const slot = slots[outSlot + o];
      let value;
      if (port.join) value = listOf(slot);
      else if (slot === undefined) continue;
      else if (slot instanceof Many) {
        throw fail(
          def,
          frame,
          `output port "${port.name}" received ${slot.list.length} values; make it a join port to gather them`,
        );
      } else value = slot;
      if (output === null) /** @type {unknown[]} */ (/** @type {unknown[][]} */ (collect)[o]).push(value);
      else output[port.name] = value;
    }
    return output;
  }

  /**
   * How many times an instance runs: once, once per message of its forked inputs, or not at all.
   * @param {Instance} inst @param {unknown[]} slots @param {Def} def @param {Frame} frame
   */
  function runCount(inst, slots, def, frame) {
    let runs = 1;
    let spread = '';
    const ports = inst.def.inputs;
    for (let p = 0; p < ports.length; p++) {
      const port = /** @type {Port} */ (ports[p]);
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

  /**
   * @param {GraphState} state @param {Target[]} targets @param {boolean} fork @param {unknown} value
   * @param {string} portName @param {Instance | null} inst
   */
  function emit(state, targets, fork, value, portName, inst) {
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

  /** @param {GraphState} state @param {Target[]} targets @param {unknown} value */
  function send(state, targets, value) {
    for (let t = 0; t < targets.length; t++) {
      const target = /** @type {Target} */ (targets[t]);
      let v = value;
      if (target.map !== null) {
        try {
          v = target.map(value, state.env.rt);
        } catch (error) {
          throw codeError(error, state.def, state.frame, `, link "${target.link}"`, target.lines);
        }
        if (v === undefined) continue;
        if (v !== null && typeof v === 'object' && typeof (/** @type {{ then?: unknown }} */ (v).then) === 'function') {
          throw fail(state.def, state.frame, `link "${target.link}" returned a promise; link code maps a value synchronously`);
        }
      }
      put(state.slots, target.slot, v);
    }
  }

  // ── definitions: the compiler's object literals become runnable components ──

  /** @param {PortSpec} p @param {Model | null} model @param {boolean} each @returns {Port} */
  function port(p, model, each) {
    return { name: p.name, join: !!p.join, fork: !!p.fork, each: !!model && each, model };
  }

  /** @param {Port} p @returns {p is CheckedPort} */
  function hasModel(p) {
    return p.model !== null;
  }

  /** @param {ComponentSpec} spec @returns {Def} */
  function component(spec) {
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
    /** @type {Def} */
    const def = {
      id: spec.id,
      name: spec.name,
      version: spec.version,
      kind: spec.kind,
      inputs,
      outputs,
      checkedInputs: inputs.filter(hasModel),
      outputChecks: outputs.filter(hasModel),
      // A forEach without input ports fails below.
      iterated: iteratedIndex >= 0 ? /** @type {Port} */ (inputs[iteratedIndex]) : null,
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

  /** @param {Def} def @param {GraphSpec} spec @returns {Graph} */
  function graph(def, spec) {
    let slotCount = 0;
    /** @type {Instance[]} */
    const instances = spec.instances.map((inst) => {
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
    /** @type {Arrival[][]} */
    const incoming = [];
    const byName = new Map(instances.map((inst, i) => [inst.name, i]));
    /** @type {Target[][]} */
    const ownTargets = def.inputs.map(() => []);
    // The compiler names only instances and ports that exist (the build checks them).
    for (const link of spec.links) {
      const from = link.from[0] === '' ? -1 : /** @type {number} */ (byName.get(link.from[0]));
      const to = link.to[0] === '' ? -1 : /** @type {number} */ (byName.get(link.to[0]));
      const source = from < 0 ? null : /** @type {Instance} */ (instances[from]);
      const sink = to < 0 ? null : /** @type {Instance} */ (instances[to]);
      const fromPorts = source === null ? def.inputs : source.def.outputs;
      const toPorts = sink === null ? def.outputs : sink.def.inputs;
      const fromPort = fromPorts.findIndex((p) => p.name === link.from[1]);
      const toPort = toPorts.findIndex((p) => p.name === link.to[1]);
      const slot = (sink === null ? outSlot : sink.slot) + toPort;
      /** @type {Target} */
      const target = { slot, map: link.map || null, link: link.name, lines: link.codeLines || null };
      const sources = /** @type {Target[]} */ ((source === null ? ownTargets : source.targets)[fromPort]);
      sources.push(target);
      if (sink !== null) sink.linked[toPort] = true;
      const arriving = incoming[target.slot] || [];
      arriving.push({ sources, model: /** @type {Port} */ (fromPorts[fromPort]).model, map: target.map });
      incoming[target.slot] = arriving;
    }
    // A port need not check again what arrives unchanged, and unshared, from a port with the
    // same data model: it was checked when it left that port (or entered this component).
    /** @param {number} slot @param {CheckedPort} port */
    const trusted = (slot, port) =>
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
  /** @param {string} name @param {unknown} fn @returns {(...args: unknown[]) => unknown} */
  function sdkFunction(name, fn) {
    if (typeof fn !== 'function') throw new RunError(`SDK function "${name}": its code must be a function`);
    const callable = applyFn(bindFn, fn, [undefined]);
    defineProperty(callable, 'name', { value: name });
    return callable;
  }

  /**
   * CommonJS modules the data model checks need, evaluated on first use.
   * @param {Record<string, ModuleFactory>} table @returns {Require}
   */
  function modules(table) {
    /** @type {Map<string, Module>} */
    const cache = new Map();
    /** @type {Require} */
    const require = (name) => {
      if (cache.has(name)) return /** @type {Module} */ (cache.get(name)).exports;
      const factory = table[name];
      if (typeof factory !== 'function') throw new RunError(`Module "${name}" is not available in a component program`);
      /** @type {Module} */
      const module = { exports: {} };
      cache.set(name, module);
      factory(module, module.exports, require);
      return module.exports;
    };
    return require;
  }

  /**
   * The data models by export name, each with its validator.
   * @param {ModuleFactory} factory @param {Require} require @param {Record<string, ModelName>} names
   */
  function models(factory, require, names) {
    /** @type {Module} */
    const module = { exports: {} };
    factory(module, module.exports, require);
    /** @type {Record<string, Model>} */
    const out = {};
    for (const key of Object.keys(names)) {
      out[key] = /** @type {Model} */ (freeze(assign({ validate: module.exports[key] }, names[key])));
    }
    return out;
  }

  // ── rows as tables (the server's uploads/row-tables.ts says what a table is) ──

  /**
   * A stored column of repeated texts: each distinct text once, and each row's index among them.
   * @param {unknown} column @returns {column is CodedColumn}
   */
  function isCoded(column) {
    return isObject(column) && isArray(column.values) && isArray(column.codes);
  }

  /** @param {unknown} column an array or a coded column */
  function columnLength(column) {
    return isArray(column) ? column.length : /** @type {CodedColumn} */ (column).codes.length;
  }

  /**
   * A function appending the rows of a column table to a list: one object literal per row, fields
   * in order, a coded column's texts looked up by their codes.
   * @param {string[]} columns @param {ColumnTable['data']} data
   */
  function rowMaker(columns, data) {
    // An own field named __proto__ (as JSON.parse makes it) needs a computed name in a literal.
    const fields = columns.map((name, c) => {
      const key = name === '__proto__' ? `[${toJson(name)}]` : toJson(name);
      return `${key}: ${isArray(data[c]) ? `c${c}[i]` : `v${c}[c${c}[i]]`}`;
    });
    const reads = columns.map((_, c) =>
      isArray(data[c]) ? `const c${c} = data[${c}];` : `const c${c} = data[${c}].codes, v${c} = data[${c}].values;`,
    );
    return /** @type {AppendRows} */ (
      new FunctionCtor(
        'data',
        'rows',
        `${reads.join('\n')}\nfor (let i = 0; i < c0.length; i++) rows.push({ ${fields.join(', ')} });`,
      )
    );
  }

  /** @param {unknown} table @returns {table is ColumnTable} */
  function isColumnTable(table) {
    if (!isObject(table) || !isArray(table.columns) || !isArray(table.data)) return false;
    const { columns, data } = /** @type {{ columns: unknown[], data: unknown[] }} */ (table);
    if (columns.length === 0 || data.length !== columns.length) return false;
    for (let c = 0; c < columns.length; c++) {
      if (typeof columns[c] !== 'string' || !(isArray(data[c]) || isCoded(data[c]))) return false;
      if (columnLength(data[c]) !== columnLength(data[0])) return false;
    }
    return true;
  }

  /**
   * The rows of an input port given as a list of tables: plain row arrays and column tables, in order.
   * @param {string} port @param {unknown} tables @returns {unknown[]}
   */
  function fromTables(port, tables) {
    if (!isArray(tables)) throw new RunError(`Input ${port}: the rows cannot be read.`);
    if (tables.length === 1 && isArray(tables[0])) return tables[0];
    const rows = [];
    for (const table of tables) {
      if (isArray(table)) {
        for (let i = 0; i < table.length; i++) rows.push(table[i]);
      } else if (isColumnTable(table)) {
        rowMaker(table.columns, table.data)(table.data, rows);
      } else {
        throw new RunError(`Input ${port}: the rows cannot be read.`);
      }
    }
    return rows;
  }

  /**
   * The fields of rows that may make a column table (the first row's), or null when they cannot:
   * no rows, a first row that is not a plain object or has no fields, an array with a toJSON.
   * @param {unknown[]} rows
   */
  function tableFields(rows) {
    if (rows.length === 0 || typeof (/** @type {{ toJSON?: unknown }} */ (rows).toJSON) === 'function') return null;
    const first = rows[0];
    if (!isObject(first)) return null;
    const columns = keysOf(first);
    return columns.length === 0 ? null : columns;
  }

  /**
   * A function going through rows that all have exactly these fields, in this order, with plain
   * values (text, numbers, booleans, null), and no toJSON; it answers false at the first row that
   * does not. It takes `params`, then isArray and keysOf; `start` runs first, and `visit(c)` is the
   * statement run with the value `v` of field c of row `r`. Generated per list of fields so that
   * each field is read by name.
   * @param {string[]} columns @param {string[]} params @param {string} start @param {(c: number) => string} visit
   */
  function rowWalker(columns, params, start, visit) {
    const sameKeys = columns.map((name, c) => `keys[${c}] !== ${toJson(name)}`).join(' || ');
    const reads = columns.map(
      (name, c) =>
        `v = row[${toJson(name)}]; if (v !== null && (t = typeof v) !== 'string' && t !== 'number' && t !== 'boolean') return false; ${visit(c)}`,
    );
    return /** @type {RowWalk} */ (
      new FunctionCtor(
        ...params,
        'isArray',
        'keysOf',
        `${start}
let v, t;
for (let r = 0; r < rows.length; r++) {
  const row = rows[r];
  if (row === null || typeof row !== 'object' || isArray(row) || typeof row.toJSON === 'function') return false;
  const keys = keysOf(row);
  if (keys.length !== ${columns.length} || ${sameKeys}) return false;
  ${reads.join('\n  ')}
}
return true;`,
      )
    );
  }

  /**
   * A column table of an output port's rows, or null when JSON text must carry them (see
   * `rowWalker` for the rows it takes). A column table rebuilds the rows JSON.stringify would have
   * written.
   * @param {unknown[]} rows @returns {ColumnTable | null}
   */
  function toTable(rows) {
    const columns = tableFields(rows);
    if (columns === null) return null;
    /** @type {unknown[][]} */
    const data = [];
    for (let c = 0; c < columns.length; c++) data.push(new Array(rows.length));
    const names = columns.map((_, c) => `c${c}`).join(', ');
    const fill = rowWalker(columns, ['rows', 'data'], `const [${names}] = data;`, (c) => `c${c}[r] = v;`);
    return fill(rows, data, isArray, keysOf) ? { columns, data } : null;
  }

  /**
   * Sets an own property, whatever its name (`__proto__` included).
   * @param {object} target @param {string} key @param {unknown} value
   */
  function setOwn(target, key, value) {
    defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }

  /**
   * The output with its ports of rows as column tables where they allow it, and the names of those
   * ports; the ports asked for as CSV files with their files (what is left of each after the pieces
   * `piecesOf(port)` sent, when it gives a sender).
   * @param {unknown} output @param {unknown[]} csvPorts @param {(port: string) => PieceSender | null} piecesOf
   * @returns {{ value: unknown, tables: string[], csv: Record<string, Uint8Array> }}
   */
  function tablesOf(output, csvPorts, piecesOf) {
    if (!isObject(output) || typeof output.toJSON === 'function') return { value: output, tables: [], csv: {} };
    /** @type {Values} */
    const value = {};
    /** @type {string[]} */
    const tables = [];
    /** @type {Record<string, Uint8Array>} */
    const csv = {};
    for (const key of keysOf(output)) {
      const port = output[key];
      const file = isArray(port) && csvPorts.includes(key) ? csvFileOfRows(port, piecesOf(key)) : null;
      if (file !== null) {
        setOwn(csv, key, file);
        continue;
      }
      const table = isArray(port) ? toTable(port) : null;
      if (table !== null) tables.push(key);
      setOwn(value, key, table ?? port);
    }
    return { value, tables, csv };
  }

  // ── a port's rows as a CSV file, for a data sink that only writes one (the server checks it) ──
  // The same bytes as the server's writer (modules/imports/sink-files.ts): papaparse's `unparse`
  // with the server's formula pattern and line feeds, in UTF-8. The server refuses a file that is
  // not UTF-8, not well-formed CSV or has a cell a spreadsheet would read as a formula, whatever a
  // component did to this code.

  /** A cell starting with one of these is escaped, whatever follows it (line breaks included). */
  const FORMULA = /^[=+\-@\t\r]/;
  const NEEDS_QUOTES = /[\r\n"\uFEFF,]/;
  const StringCtor = String;
  const Uint8ArrayCtor = Uint8Array;

  /** @param {string | number | boolean | null | undefined} value */
  function csvCell(value) {
    if (value === null || value === undefined) return '';
    if (typeof value === 'number' || typeof value === 'boolean') return StringCtor(value);
    let text = value;
    let quote = false;
    if (FORMULA.test(text)) {
      text = `'${text}`;
      quote = true;
    }
    if (!quote && !NEEDS_QUOTES.test(text) && text.charCodeAt(0) !== 32 && text.charCodeAt(text.length - 1) !== 32) {
      return text;
    }
    return `"${text.includes('"') ? text.replaceAll('"', '""') : text}"`;
  }

  /**
   * A text whose first or last character makes `csvCell` look closer at it (a formula, a space).
   * @param {string} text
   */
  function edgy(text) {
    const first = text.charCodeAt(0);
    if (first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 || first === 32) return true;
    return text.charCodeAt(text.length - 1) === 32;
  }

  /** ASCII characters that make a cell quoted: line feed, carriage return, quote, comma. */
  const QUOTED = new Uint8ArrayCtor(128);
  QUOTED[10] = 1;
  QUOTED[13] = 1;
  QUOTED[34] = 1;
  QUOTED[44] = 1;

  /**
   * Writes a text's UTF-8 bytes at `at` (as the server's Buffer.from encodes it: a lone surrogate
   * as U+FFFD) and answers where they end; with `plain`, answers -1 instead at a character that
   * makes a cell quoted. `out` has room for three bytes per character.
   * @param {Uint8Array} out @param {number} at @param {string} text @param {boolean} plain
   */
  function putText(out, at, text, plain) {
    let p = at;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c < 0x80) {
        if (plain && QUOTED[c] === 1) return -1;
        out[p++] = c;
        continue;
      }
      if (c < 0x800) {
        out[p++] = 0xc0 | (c >> 6);
        out[p++] = 0x80 | (c & 63);
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = text.charCodeAt(i + 1);
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          const point = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          out[p++] = 0xf0 | (point >> 18);
          out[p++] = 0x80 | ((point >> 12) & 63);
          out[p++] = 0x80 | ((point >> 6) & 63);
          out[p++] = 0x80 | (point & 63);
          i++;
          continue;
        }
        c = 0xfffd;
      } else if (plain && c === 0xfeff) {
        return -1;
      }
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 63);
      out[p++] = 0x80 | (c & 63);
    }
    return p;
  }

  /**
   * Writes the decimal digits of a whole number 0 ≤ n < 1e15 at `at`; answers where they end.
   * @param {Uint8Array} out @param {number} at @param {number} n
   */
  function putDigits(out, at, n) {
    let end = at;
    for (let rest = n; rest >= 10; rest = floor(rest / 10)) end++;
    let p = end;
    let rest = n;
    do {
      out[p--] = 48 + (rest % 10);
      rest = floor(rest / 10);
    } while (rest > 0);
    return end + 1;
  }

  /**
   * Writes a number as String(number) writes it, and answers where it ends. Whole numbers and
   * amounts in hundredths (a double equal to k / 100 below 1e13: its shortest form has those digits)
   * are written digit by digit; any other number through String.
   * @param {Uint8Array} out @param {number} at @param {number} value
   */
  function putNumber(out, at, value) {
    const size = value < 0 ? -value : value;
    if (size < 1e13) {
      let p = at;
      const cents = round(size * 100);
      if (cents / 100 === size) {
        if (value < 0) out[p++] = 45;
        const whole = floor(cents / 100);
        p = putDigits(out, p, whole);
        const frac = cents - whole * 100;
        if (frac !== 0) {
          out[p++] = 46;
          out[p++] = 48 + floor(frac / 10);
          if (frac % 10 !== 0) out[p++] = 48 + (frac % 10);
        }
        return p;
      }
    }
    return putText(out, at, StringCtor(value), false);
  }

  /**
   * Writes one plain value's CSV cell (and room for the separator after it) into the file being
   * written, `file.out` from `file.p`. A text is looked at as its bytes are written, and written
   * again through `csvCell` when it needs quoting or escaping.
   * @param {CsvFile} file @param {string | number | boolean | null} value
   */
  function putCell(file, value) {
    if (typeof value === 'string') {
      if (file.p + 3 * value.length + 8 > file.out.length) file.out = grown(file.out, file.p, 3 * value.length + 8);
      const end = value.length === 0 || edgy(value) ? -1 : putText(file.out, file.p, value, true);
      if (end >= 0) {
        file.p = end;
      } else if (value.length > 0) {
        const cell = csvCell(value);
        if (file.p + 3 * cell.length + 8 > file.out.length) file.out = grown(file.out, file.p, 3 * cell.length + 8);
        file.p = putText(file.out, file.p, cell, false);
      }
      return;
    }
    if (file.p + 40 > file.out.length) file.out = grown(file.out, file.p, 40);
    if (typeof value === 'number') file.p = putNumber(file.out, file.p, value);
    else if (value !== null) file.p = putText(file.out, file.p, value ? 'true' : 'false', false);
  }

  /**
   * The CSV file of an output port's rows as UTF-8 bytes, written cell by cell into one buffer, or
   * null when the rows would not make a column table (the same rows as `toTable`, the same file as
   * the server writes from one). No cell, line or file text is built for cells written as they
   * are, and no column either. The buffer is sized from a sample of the rows: memory new to the
   * process costs about as much to fill as the writing itself, so it is taken once, not doubled
   * and copied as the file grows, nor copied again at the end when it is nearly full.
   * @param {unknown[]} rows @param {PieceSender | null} pieces @returns {Uint8Array | null}
   */
  function csvFileOfRows(rows, pieces) {
    const columns = tableFields(rows);
    if (columns === null) return null;
    const header = columns.map(csvCell).join(',');
    const last = columns.length - 1;
    // After each line, a file sent in pieces sends the lines written so far once they fill a piece.
    const write = rowWalker(columns, ['rows', 'file', 'putCell'], '', (c) =>
      c === last
        ? 'putCell(file, v); file.out[file.p++] = 10; if (file.p >= file.limit) file.send();'
        : 'putCell(file, v); file.out[file.p++] = 44;',
    );
    /** @type {unknown[]} */
    const sample = [];
    const step = max(1, floor(rows.length / CSV_SAMPLE_ROWS));
    for (let r = 0; r < rows.length; r += step) sample.push(rows[r]);
    /** @type {CsvFile} */
    const probe = { out: new Uint8ArrayCtor(64 * sample.length + 64), p: 0, limit: Infinity };
    if (!write(sample, probe, putCell, isArray, keysOf)) return null;
    const perRow = sample.length === 0 ? 0 : probe.p / sample.length;
    const whole = 3 * header.length + ceil(perRow * rows.length * 1.05) + 64;
    // In pieces when it makes at least two: a buffer of a piece and room for a long line, used again.
    const inPieces = pieces !== null && whole >= 2 * pieces.bytes;
    /** @type {CsvFile} */
    const file = {
      out: new Uint8ArrayCtor(inPieces ? pieces.bytes + 3 * header.length + ceil(4 * perRow) + 64 : whole),
      p: 0,
      limit: inPieces ? pieces.bytes : Infinity,
      send() {
        /** @type {PieceSender} */ (pieces).send(file.out.subarray(0, file.p));
        file.p = 0;
      },
    };
    file.p = putText(file.out, 0, header, false);
    file.out[file.p++] = 10;
    // Pieces already sent of rows that turn out not to make a file are dropped by the server: the
    // answer does not name the port as a file.
    if (!write(rows, file, putCell, isArray, keysOf)) return null;
    return file.p >= 0.9 * file.out.length ? file.out.subarray(0, file.p) : file.out.slice(0, file.p);
  }

  /**
   * The senders of the ports' pieces of CSV file for the server, which stores each as it comes
   * while the next is being written (`of(port)` is null when the run sends none), the pieces sent
   * by port and their bytes in all. A piece is copied as it is sent.
   * @param {RunOptions} options @param {unknown} emit
   * @returns {{ counts: Record<string, number>, size: () => number, of: (port: string) => PieceSender | null }}
   */
  function pieceSenders(options, emit) {
    /** @type {Record<string, number>} */
    const counts = {};
    let size = 0;
    const bytes = options.csvPieceBytes;
    const on = typeof emit === 'function' && typeof bytes === 'number' && bytes >= 1024;
    return {
      counts,
      size: () => size,
      of: (port) =>
        on
          ? {
              bytes,
              send(piece) {
                const count = hasOwn(counts, port) ? /** @type {number} */ (counts[port]) : 0;
                /** @type {Emit} */ (emit)(port, count, piece);
                setOwn(counts, port, count + 1);
                size += piece.byteLength;
              },
            }
          : null,
    };
  }

  /**
   * A bigger buffer holding the first `used` bytes of `out`, with room for at least `more` after them.
   * @param {Uint8Array} out @param {number} used @param {number} more
   */
  function grown(out, used, more) {
    const bigger = new Uint8ArrayCtor(max(used + more, 2 * out.length));
    bigger.set(out.subarray(0, used));
    return bigger;
  }

  // ── the payload's JSON text, given whole or in parts: texts and the UTF-8 bytes of stored files ──
  // The server hands a large file's bytes over as they are (its memory moves, nothing is copied)
  // and they are decoded here, in the isolate's own thread, instead of in the server's event loop.

  const fromCharCode = StringCtor.fromCharCode;
  const ArrayBufferCtor = ArrayBuffer;
  const Uint16ArrayCtor = Uint16Array;
  /** Code units decoded before they are made into text together. */
  const UNITS = 8192;
  const REPLACEMENT = 0xfffd;

  /**
   * How many bytes follow a lead byte in UTF-8; 0 for a byte that cannot lead a character.
   * @param {number} lead
   */
  function followers(lead) {
    if (lead >= 0xc2 && lead <= 0xdf) return 1;
    if (lead >= 0xe0 && lead <= 0xef) return 2;
    if (lead >= 0xf0 && lead <= 0xf4) return 3;
    return 0;
  }

  /**
   * The text of UTF-8 bytes as the server's TextDecoder reads them: each ill-formed sequence, as
   * far as it goes before the byte that breaks it, becomes one U+FFFD. The second byte's range
   * after E0, ED, F0 and F4 keeps out overlong forms, surrogates and points past U+10FFFF.
   * @param {Uint8Array} bytes
   */
  function utf8Text(bytes) {
    const n = bytes.length;
    const store = new ArrayBufferCtor(UNITS * 2);
    const units = new Uint16ArrayCtor(store);
    let text = '';
    let u = 0;
    let i = 0;
    while (i < n) {
      if (u > UNITS - 2) {
        text += applyFn(fromCharCode, null, new Uint16ArrayCtor(store, 0, u));
        u = 0;
      }
      const lead = /** @type {number} */ (bytes[i++]);
      if (lead < 0x80) {
        units[u++] = lead;
        continue;
      }
      const need = followers(lead);
      let lower = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
      let upper = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
      let point = lead & (0xff >> (need + 2));
      let ok = need > 0;
      for (let k = 0; ok && k < need; k++) {
        const next = i < n ? /** @type {number} */ (bytes[i]) : -1;
        ok = next >= lower && next <= upper;
        if (!ok) break;
        point = (point << 6) | (next & 0x3f);
        lower = 0x80;
        upper = 0xbf;
        i++;
      }
      if (!ok) units[u++] = REPLACEMENT;
      else if (point < 0x10000) units[u++] = point;
      else {
        units[u++] = 0xd800 | ((point - 0x10000) >> 10);
        units[u++] = 0xdc00 | ((point - 0x10000) & 0x3ff);
      }
    }
    return text + applyFn(fromCharCode, null, new Uint16ArrayCtor(store, 0, u));
  }

  /**
   * The payload's JSON text from what the server gave: the text, or its parts in order.
   * @param {string | (string | Uint8Array)[]} given
   */
  function payloadText(given) {
    if (!isArray(given)) return given;
    let text = '';
    for (let i = 0; i < given.length; i++) {
      const part = given[i];
      text += typeof part === 'string' ? part : utf8Text(/** @type {Uint8Array} */ (part));
    }
    return text;
  }

  // ── entry points the server calls with text, answered with text ──

  /** @param {unknown} value @returns {value is Record<string, unknown>} */
  function isObject(value) {
    return value !== null && typeof value === 'object' && !isArray(value);
  }

  /** @param {boolean} ok @param {Partial<Answer>} fields @param {Logger} logger @param {{ rt: unknown }} env @returns {Answer} */
  function answer(ok, fields, logger, env) {
    let rtContext = 'null';
    try {
      rtContext = toJson(env.rt) ?? 'null';
    } catch {
      rtContext = 'null';
    }
    return assign(
      { ok, output: '', tables: [], csv: [], csvPieces: {}, error: '', failure: 'code', rtContext, logs: logger.entries() },
      fields,
    );
  }

  /** @param {unknown} value @param {RunOptions} options */
  function writeOutput(value, options) {
    let text;
    try {
      text = toJson(value) ?? 'null';
    } catch (error) {
      throw new RunError(`The output cannot be written as JSON: ${errorText(error)}`, 'output');
    }
    if (text.length > options.maxOutputChars) {
      throw new RunError(`The output is larger than ${options.maxOutputChars} characters of JSON.`, 'output');
    }
    return text;
  }

  /**
   * The entry point of a component's program. Its answer names the CSV files it wrote; the server
   * then takes each one by itself with `csvFile`, a copy of its bytes it receives as they are, where
   * a file inside the answer would be copied twice (written into the answer's serialised form, then
   * read out of it).
   * @param {Def} root @returns {Entry}
   */
  function entry(root) {
    /** @type {Record<string, Uint8Array | undefined>} */
    let files = {};
    /**
     * @param {string | (string | Uint8Array)[]} inputText the payload's JSON text, whole or in parts
     * @param {string} rtText @param {string} optionsText @param {unknown} [emit]
     */
    const run = async (inputText, rtText, optionsText, emit) => {
      files = {};
      /** @type {RunOptions} */
      const options = parseJson(optionsText);
      const logger = createLogger(options);
      /** @type {{ console: unknown }} */ (globalThis).console = logger.console;
      /** @type {Env} */
      const env = { rt: {}, log: logger.log, check: options.check !== false };
      try {
        env.rt = parseJson(rtText);
        if (!isObject(env.rt)) throw new RunError('The rt_context must be a JSON object.');
        const input = parseJson(payloadText(inputText));
        if (!isObject(input)) throw new RunError('The payload must be a JSON object with a value for each input port.');
        if (options.tables === true) {
          for (const port of keysOf(input)) {
            const rows = fromTables(port, input[port]);
            setOwn(input, port, rows);
          }
        }
        const output = await invoke(root, input, env, rootFrame(root), root.checkedInputs);
        if (!isObject(env.rt)) throw new RunError('ctx.rt_context must stay a JSON object.');
        if (options.tables !== true) return answer(true, { output: writeOutput(output, options) }, logger, env);
        const pieces = pieceSenders(options, emit);
        const { value, tables, csv } = tablesOf(output, isArray(options.csv) ? options.csv : [], pieces.of);
        const text = writeOutput(value, options);
        let chars = text.length + pieces.size();
        for (const key of keysOf(csv)) chars += /** @type {Uint8Array} */ (csv[key]).byteLength;
        if (chars > options.maxOutputChars) {
          throw new RunError(
            `The output is larger than ${options.maxOutputChars} characters of JSON and bytes of CSV.`,
            'output',
          );
        }
        files = csv;
        // The pieces sent of each file answered: the server holds them to what it received.
        /** @type {Record<string, number>} */
        const csvPieces = {};
        for (const key of keysOf(csv)) setOwn(csvPieces, key, hasOwn(pieces.counts, key) ? pieces.counts[key] : 0);
        return answer(true, { output: text, tables, csv: keysOf(csv), csvPieces }, logger, env);
      } catch (error) {
        return answer(false, { error: errorText(error), failure: error instanceof RunError ? error.kind : 'code' }, logger, env);
      }
    };
    /** A CSV file of the last run, once: the server holds its copy after. @param {string} port */
    const csvFile = (port) => {
      const file = files[port];
      files[port] = undefined;
      return file;
    };
    return freeze(assign(run, { csvFile }));
  }

  /**
   * The entry point of an SDK function's program: its arguments as a JSON array.
   * @param {string} name @param {(...args: unknown[]) => unknown} fn
   * @returns {(argsText: string, rtText: string, optionsText: string) => Promise<Answer>}
   */
  function sdkEntry(name, fn) {
    return async (argsText, _rtText, optionsText) => {
      /** @type {RunOptions} */
      const options = parseJson(optionsText);
      const logger = createLogger(options);
      /** @type {{ console: unknown }} */ (globalThis).console = logger.console;
      const env = { rt: null };
      try {
        const args = parseJson(argsText);
        if (!isArray(args)) throw new RunError('The payload must be an array of arguments.');
        let result;
        try {
          result = await fn(...args);
        } catch (error) {
          throw new RunError(`SDK function "${name}": ${errorText(error)}`);
        }
        return answer(true, { output: writeOutput(result === undefined ? null : result, options) }, logger, env);
      } catch (error) {
        return answer(false, { error: errorText(error), failure: error instanceof RunError ? error.kind : 'code' }, logger, env);
      }
    };
  }

  return freeze({ component, sdkFunction, modules, models, entry, sdkEntry });
})();
