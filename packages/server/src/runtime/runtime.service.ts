import type { RunLogEntry, RunResult } from '@gdb/shared/components/run.schemas';
import type { SdkFunction } from '@gdb/shared/sdk/sdk.schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../platform/config.ts';
import { CallerGate } from './caller-gate.ts';
import { checkGraph, label } from './checks.ts';
import { generateProgram, generateSdkProgram, type Program, RUNTIME_REVISION } from './codegen.ts';
import { type CsvPieces, execute, type RunLimits } from './executor.ts';
import { type ComponentGraph, type DocumentSource, fingerprint, loadGraph } from './graph.ts';
import { IsolatePool } from './isolate-pool.ts';
import { buildModels } from './models.ts';
import { buildFailure, RunFailure } from './run-failure.ts';
import { checkSyntax } from './syntax-check.ts';

/** A run of a component version on a payload, as the imports module and the test runner ask for it. */
export interface ComponentRunRequest {
  /** The component version to run. */
  componentId: string;
  /** JSON text of ctx.input: an object with a value for each input port name, e.g. `{"rows":[…]}`. */
  inputJson: string;
  /** JSON text of ctx.rt_context, an object (default `{}`). */
  rtContextJson?: string;
  /** Check port values against their data models (default true). */
  checkPorts?: boolean;
  /**
   * Rows travel as tables (platform/files/row-tables.ts): each value of the input is a list of tables the
   * sandbox turns into one array of rows, and an output port holding rows that share their fields
   * comes back as a column table, named in `outputTables`.
   */
  tables?: boolean;
  /**
   * With `tables`: output ports to answer as CSV files (UTF-8 bytes in `outputCsv`, not in
   * `outputJson`) when their rows make a column table; the caller checks the file
   * (imports/sink-files.ts `csvRecords`).
   */
  csvPorts?: string[];
  /**
   * With `csvPorts`: the CSV files handed over in pieces while they are written, each as it comes
   * (see the executor's `CsvPieces`); `outputCsv` then holds what is left of each file.
   */
  csvPieces?: CsvPieces;
  /** Limits of this run; the configured test-run limits fill what is not given. */
  limits?: Partial<RunLimits>;
  /** Aborting it cancels the run at once and frees its isolate. */
  signal?: AbortSignal;
}

export interface ComponentRunOutcome {
  /** JSON text of ctx.output: an object with a value for each output port that produced one. */
  outputJson: string;
  /** Output ports whose value in `outputJson` is a column table (runs asked with `tables`). */
  outputTables: string[];
  /**
   * CSV files of output ports asked as `csvPorts` (UTF-8 bytes), by port: not checked yet; the last
   * piece of each when the run was asked for `csvPieces`.
   */
  outputCsv: Record<string, Uint8Array>;
  /** JSON text of the final ctx.rt_context. */
  rtContextJson: string;
  logs: RunLogEntry[];
  durationMs: number;
}

const PROGRAM_CACHE_SIZE = 200;
const MAX_LOG_ENTRY_CHARS = 10_000;

/** A small least-recently-used map of built programs. */
class ProgramCache {
  private readonly map = new Map<string, Promise<Program>>();
  get(key: string): Promise<Program> | undefined {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: Promise<Program>): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > PROGRAM_CACHE_SIZE) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    value.catch(() => {
      if (this.map.get(key) === value) this.map.delete(key);
    });
  }
}

/** True when every document of the graph is a locked version, so its program can never change. */
function isLocked(graph: ComponentGraph): boolean {
  if (graph.missingComponents.size + graph.missingSchemas.size + graph.missingSdk.size > 0) return false;
  for (const c of graph.components.values()) if (!c.vLocked) return false;
  for (const s of graph.schemas.values()) if (!s.vLocked) return false;
  for (const f of graph.sdk.values()) if (!f.vLocked) return false;
  return true;
}

/** Which ports use each data model, for messages about a model that does not compile. */
function portModels(graph: ComponentGraph): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (id: string | null, where: string) => {
    if (!id || !graph.schemas.has(id)) return;
    out.set(id, [...(out.get(id) ?? []), where]);
  };
  for (const c of graph.components.values()) {
    for (const p of c.inputs) add(p.inputSchema, `${label(c)}, input port "${p.name}"`);
    for (const p of c.outputs) add(p.outputSchema, `${label(c)}, output port "${p.name}"`);
  }
  return out;
}

/**
 * The component runtime (docs/product.md §16): builds a component version into one program, keeps isolates
 * warm and runs programs in them with limits, cancel and bounded logs. See runtime/README.md.
 */
export function runtimeService(options: { settings: Config['runtime']; log: FastifyBaseLogger; source: DocumentSource }) {
  const { settings, log, source } = options;
  const onCatastrophicError = (message: string) =>
    log.fatal({ message }, 'an isolate failed beyond recovery; restart the server process');
  // Test runs from the editors get isolates of their own, so no number of them can hold up an import.
  const pool = new IsolatePool({ size: settings.poolSize, queueLimit: settings.queueLimit, onCatastrophicError });
  const testPool = new IsolatePool({ size: settings.testPoolSize, queueLimit: settings.queueLimit, onCatastrophicError });
  const testGate = new CallerGate({ running: settings.testRunsPerUser, waiting: settings.testQueuePerUser });
  // Syntax checks only compile (no user code runs), so one isolate of their own serves both lanes without making either wait.
  const syntaxPool = new IsolatePool({ size: 1, queueLimit: settings.queueLimit, onCatastrophicError });
  const programs = new ProgramCache();
  const lockedPrograms = new ProgramCache();
  const sdkPrograms = new ProgramCache();
  const tests = new Map<string, Set<AbortController>>();

  const limitsOf = (given: Partial<RunLimits> = {}): RunLimits => ({
    memoryMiB: given.memoryMiB ?? settings.memoryMiB,
    timeoutMs: given.timeoutMs ?? settings.timeoutMs,
    maxOutputChars: given.maxOutputChars ?? settings.maxOutputChars,
    maxLogEntries: given.maxLogEntries ?? settings.maxLogEntries,
    maxLogChars: given.maxLogChars ?? settings.maxLogChars,
    maxLogEntryChars: given.maxLogEntryChars ?? Math.min(MAX_LOG_ENTRY_CHARS, settings.maxLogChars),
  });

  async function compile(graph: ComponentGraph): Promise<Program> {
    const orders = checkGraph(graph);
    const problems: { component: string; message: string }[] = [];
    const models = buildModels(graph.schemas, portModels(graph), problems);
    if (problems.length > 0) throw buildFailure(problems);
    const program = generateProgram(graph, orders, models);
    const syntax = await checkSyntax(syntaxPool, program.blocks, settings.memoryMiB);
    if (syntax.length > 0) throw buildFailure(syntax);
    return program;
  }

  /** The program of a component version: built from its current documents, or taken from the cache. */
  async function program(componentId: string, opts: { fresh?: boolean } = {}): Promise<Program> {
    // A locked version whose whole closure is locked never changes: no need to read it again.
    const settled = opts.fresh ? undefined : lockedPrograms.get(componentId);
    if (settled) return settled;
    const graph = await loadGraph(source, componentId);
    const key = fingerprint(graph, RUNTIME_REVISION);
    const cached = opts.fresh ? undefined : programs.get(key);
    const built = cached ?? compile(graph);
    if (!cached) programs.set(key, built);
    if (isLocked(graph)) lockedPrograms.set(componentId, built);
    return built;
  }

  /** Runs a component version in the isolates of one lane; throws a RunFailure when it fails. */
  async function runIn(lane: IsolatePool, request: ComponentRunRequest): Promise<ComponentRunOutcome> {
    const started = performance.now();
    const built = await program(request.componentId);
    const answer = await execute(
      lane,
      built,
      {
        input: request.inputJson,
        rtContext: request.rtContextJson ?? '{}',
        check: request.checkPorts !== false,
        tables: request.tables === true,
        csv: request.csvPorts ?? [],
        csvPieces: request.csvPieces,
      },
      limitsOf(request.limits),
      request.signal,
    );
    if (!answer.ok) throw new RunFailure(answer.failure, answer.error, { logs: answer.logs });
    return {
      outputJson: answer.output,
      outputTables: answer.tables,
      outputCsv: answer.csv,
      rtContextJson: answer.rtContext,
      logs: answer.logs,
      durationMs: performance.now() - started,
    };
  }

  /** Runs a component version on a payload given as JSON text (an import's run); throws a RunFailure when it fails. */
  function runComponent(request: ComponentRunRequest): Promise<ComponentRunOutcome> {
    return runIn(pool, request);
  }

  /** Runs an SDK function version on an argument array given as JSON text; answers its result as JSON text. */
  async function runSdkFunction(
    fn: SdkFunction,
    argsJson: string,
    opts: { limits?: Partial<RunLimits>; signal?: AbortSignal; lane?: IsolatePool } = {},
  ): Promise<{ outputJson: string; logs: RunLogEntry[] }> {
    const lane = opts.lane ?? pool;
    const key = `${fn._id} ${fn.sys_version} ${fn.lastUpdateDate} ${RUNTIME_REVISION}`;
    let built = sdkPrograms.get(key);
    if (!built) {
      built = (async () => {
        const p = generateSdkProgram(fn);
        const syntax = await checkSyntax(syntaxPool, p.blocks, settings.memoryMiB);
        if (syntax.length > 0) throw buildFailure(syntax);
        return p;
      })();
      sdkPrograms.set(key, built);
    }
    const answer = await execute(
      lane,
      await built,
      { input: argsJson, rtContext: 'null', check: false, tables: false, csv: [] },
      limitsOf(opts.limits),
      opts.signal,
    );
    if (!answer.ok) throw new RunFailure(answer.failure, answer.error, { logs: answer.logs });
    return { outputJson: answer.output, logs: answer.logs };
  }

  const testKey = (userId: string, componentId: string) => `${userId} ${componentId}`;

  return {
    program,
    runComponent,
    runSdkFunction,

    /**
     * A test run from the component editor: payload and rt_context in, the run result out; the
     * caller can stop it with `stopTest`, also while it waits for one of the caller's places.
     * Failures read 'Execute error : {detail}'.
     */
    async testComponent(userId: string, componentId: string, payload: object, rtContext: object): Promise<RunResult> {
      const key = testKey(userId, componentId);
      const controller = new AbortController();
      const running = tests.get(key) ?? new Set<AbortController>();
      running.add(controller);
      tests.set(key, running);
      try {
        const leave = await testGate.enter(userId, controller.signal);
        const outcome = await runIn(testPool, {
          componentId,
          inputJson: JSON.stringify(payload),
          rtContextJson: JSON.stringify(rtContext),
          signal: controller.signal,
        }).finally(leave);
        return {
          output: objectFrom(outcome.outputJson),
          logs: outcome.logs,
          rt_context: objectFrom(outcome.rtContextJson),
        };
      } catch (error) {
        if (error instanceof RunFailure) throw error.withPrefix('Execute error : ');
        throw error;
      } finally {
        running.delete(controller);
        if (running.size === 0) tests.delete(key);
      }
    },

    /** Cancels the caller's running tests of a component; true when one was running. */
    stopTest(userId: string, componentId: string): boolean {
      const running = tests.get(testKey(userId, componentId));
      if (!running || running.size === 0) return false;
      for (const controller of running) controller.abort();
      return true;
    },

    /** Runs an SDK function for its editor's test area, in the caller's places; failures read 'Execute error : {detail}'. */
    async testSdkFunction(userId: string, fn: SdkFunction, args: unknown[]): Promise<{ output: unknown; logs: RunLogEntry[] }> {
      try {
        const leave = await testGate.enter(userId);
        const outcome = await runSdkFunction(fn, JSON.stringify(args), { lane: testPool }).finally(leave);
        return { output: JSON.parse(outcome.outputJson), logs: outcome.logs };
      } catch (error) {
        if (error instanceof RunFailure) throw error.withPrefix('Execute error : ');
        throw error;
      }
    },

    /** Isolates alive, idle and runs waiting: of import runs, and of test runs under `tests`. */
    stats: () => ({ ...pool.stats(), tests: testPool.stats() }),

    /** Test runs one user has going and waiting. */
    testRuns: (userId: string) => testGate.stats(userId),

    /** Disposes every isolate; runs still waiting are refused. */
    close(): void {
      pool.close();
      testPool.close();
      syntaxPool.close();
    },
  };
}

/** A JSON object read from text the program wrote (JSON.parse never touches prototypes). */
function objectFrom(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value));
}

export type RuntimeService = ReturnType<typeof runtimeService>;
