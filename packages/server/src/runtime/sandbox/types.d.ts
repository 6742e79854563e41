// Types of the runtime library (the modules of this folder, bundled by prelude-code.ts) and of what
// crosses the isolate's boundary: the definitions the compiler writes (codegen.ts), the options the
// server sends (executor.ts) and the answer it reads back. Types only: nothing here reaches the
// isolate, and nothing here is trusted by the server, which reads every answer through its schema.

/** A component's values by port name (ctx.input, ctx.output). */
export type Values = Record<string, unknown>;

/** The first and last line of a piece of user code in the program. */
export type Lines = [number, number];

type Kind = 'instruction' | 'function' | 'workflow' | 'forEach';

// ── what the compiler writes ──

/** An ajv standalone validator: its errors are those of its last call. */
interface Validate {
  (value: unknown): boolean;
  errors?: { instancePath: string; message?: string }[] | null;
}

/** A data model as `models()` makes it from the compiler's table. */
export interface Model {
  readonly validate: Validate;
  readonly id: string;
  readonly name: string;
  readonly version: number;
}

/** A data model as the compiler names it, before its validator joins it. */
export type ModelName = Omit<Model, 'validate'>;

/** A CommonJS module the data model checks load, as the compiler writes it. */
export type ModuleFactory = (module: Module, exports: Module['exports'], require: Require) => void;
export interface Module {
  exports: Record<string, unknown>;
}
export type Require = (name: string) => unknown;

export interface PortSpec {
  name: string;
  join?: boolean;
  fork?: boolean;
  inputIsJoin?: boolean;
  model?: Model | null;
}

/** The code of an instruction or function: its body is the user's code. */
export type CodeFn = (ctx: Ctx, sdk: Sdk) => unknown;

/** A link's code: answers the value sent on (undefined sends nothing). */
type LinkFn = (input: unknown, rtContext: unknown) => unknown;

interface InstanceSpec {
  name: string;
  component: Def;
}

interface LinkSpec {
  name: string;
  /** [instance, port]; an empty instance is the component's own port. */
  from: [string, string];
  to: [string, string];
  map: LinkFn | null;
  codeLines?: Lines;
}

interface SpecBase {
  id: string;
  name: string;
  version: number;
  inputs: PortSpec[];
  outputs: PortSpec[];
}

interface CodeSpec extends SpecBase {
  kind: 'instruction' | 'function';
  code: CodeFn;
  codeLines?: Lines;
  sdk?: Record<string, unknown>;
}

export interface GraphSpec extends SpecBase {
  kind: 'workflow' | 'forEach';
  code?: undefined;
  codeLines?: undefined;
  sdk?: undefined;
  instances: InstanceSpec[];
  /** Indexes of `instances`, producers before their consumers. */
  order: number[];
  links: LinkSpec[];
}

/** A component as the compiler writes it (`__gdb.component({ … })`). */
export type ComponentSpec = CodeSpec | GraphSpec;

// ── what the library makes of it ──

export interface Port {
  name: string;
  join: boolean;
  fork: boolean;
  /** Its value is an array whose elements the data model describes. */
  each: boolean;
  model: Model | null;
}

export interface CheckedPort extends Port {
  model: Model;
}

/** A component made runnable. */
export interface Def {
  id: string;
  name: string;
  version: number;
  kind: Kind;
  inputs: Port[];
  outputs: Port[];
  checkedInputs: CheckedPort[];
  outputChecks: CheckedPort[];
  /** A forEach's array port. */
  iterated: Port | null;
  run: RunFn;
  code: CodeFn | null;
  codeLines: Lines | null;
  sdk: Sdk;
  /** A workflow's or forEach's instances and links. */
  graph: Graph | null;
}

/** A step answers its output at once when all it ran was synchronous, else a promise of it. */
export type Output = Values | Promise<Values>;

export type RunFn = (def: Def, input: Values, env: Env, frame: Frame) => Output;

type Sdk = Readonly<Record<string, unknown>>;

/** Where a run is: cheap objects, turned into text only when something fails. */
export interface Frame {
  parent: Frame | null;
  def: Def;
  instance: string | null;
  /** The element a forEach is working on, -1 elsewhere. */
  index: number;
  kids: Frame[] | null;
}

export interface Env {
  /** ctx.rt_context, shared by the whole run; code may replace it with anything. */
  rt: unknown;
  log: Log;
  check: boolean;
}

export interface Ctx {
  input: Values;
  /** Code may replace it with anything: it is checked to be an object after the code ran. */
  output: unknown;
  rt_context: unknown;
  log: Log;
}

export interface Graph {
  instances: Instance[];
  order: number[];
  /** The targets of each of the component's own input ports. */
  ownTargets: Target[][];
  slotCount: number;
  /** The first slot of the component's own output ports. */
  outSlot: number;
}

export interface Instance {
  name: string;
  def: Def;
  /** The first slot of its input ports. */
  slot: number;
  linked: boolean[];
  /** The targets of each of its output ports. */
  targets: Target[][];
  inputChecks: CheckedPort[];
}

/** Where a link delivers a value: a port's slot, through the link's code if it has any. */
export interface Target {
  slot: number;
  map: LinkFn | null;
  link: string;
  lines: Lines | null;
}

/** What arrives at a slot, to tell whether it needs checking there. */
export interface Arrival {
  sources: Target[];
  model: Model | null;
  map: LinkFn | null;
}

/** One run of a workflow's graph; `collect` holds a forEach's outputs by port. */
export interface GraphState {
  slots: unknown[];
  env: Env;
  def: Def;
  frame: Frame;
  collect: unknown[][] | null;
}

// ── logs ──

export type LogLevel = 'info' | 'warn' | 'error' | 'success';

export interface LogEntry {
  level: LogLevel;
  message: string;
  date: string;
}

type LogFn = (...args: unknown[]) => void;

/** ctx.log: info when called, and a function per level. */
export interface Log extends LogFn {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  success: LogFn;
}

export interface Logger {
  log: Log;
  /** What the code sees as `console`. */
  console: Readonly<Record<'log' | 'info' | 'debug' | 'warn' | 'error', LogFn>>;
  /** The entries kept, with one counting those dropped. */
  entries(): LogEntry[];
}

// ── rows as tables and CSV files ──

/** A stored column of repeated texts: each distinct text once, and each row's index among them. */
export interface CodedColumn {
  values: unknown[];
  codes: number[];
}

export interface ColumnTable {
  columns: string[];
  data: (unknown[] | CodedColumn)[];
}

/** A buffer being written: `p` is where the next byte goes; `send` hands on a piece at `limit`. */
export interface CsvFile {
  out: Uint8Array;
  p: number;
  limit: number;
  send?(): void;
}

/** Sends one port's CSV file in pieces of about `bytes` bytes. */
export interface PieceSender {
  bytes: number;
  send(piece: Uint8Array): void;
}

/** The server's receiver of pieces of CSV file (an isolated-vm callback). */
export type Emit = (port: string, index: number, piece: Uint8Array) => void;

/** A generated function appending the rows of a column table to a list (see `rowMaker`). */
export type AppendRows = (data: ColumnTable['data'], rows: unknown[]) => void;

/** A generated function going through rows (see `rowWalker`): false at the first row it cannot take. */
export type RowWalk = (...args: unknown[]) => boolean;

// ── the boundary: what the server sends and reads back ──

/** The options of a run, sent as JSON text. */
export interface RunOptions {
  check?: boolean;
  /** Input values are lists of tables; output ports of rows come back as column tables. */
  tables?: boolean;
  /** Output ports to answer as CSV files. */
  csv?: string[];
  maxOutputChars: number;
  maxLogEntries: number;
  maxLogChars: number;
  maxLogEntryChars: number;
  /** Send CSV files in pieces of about this many bytes (at least 1,024), through the callback. */
  csvPieceBytes?: number;
}

/** The answer of a run, as the entry point writes it. */
export interface Answer {
  ok: boolean;
  output: string;
  tables: string[];
  csv: string[];
  csvPieces: Record<string, number>;
  error: string;
  failure: 'code' | 'output';
  rtContext: string;
  logs: LogEntry[];
}

/** The entry point of a component's program (`globalThis.__gdbMain`). */
export interface Entry {
  /** `emit` receives pieces of CSV files, `logSink` each log entry as it is written (see logs.ts). */
  (
    inputText: string | (string | Uint8Array)[],
    rtText: string,
    optionsText: string,
    emit?: unknown,
    logSink?: unknown,
  ): Promise<Answer>;
  /** A CSV file of the last run, once. */
  csvFile(port: string): Uint8Array | undefined;
}
