import type { RunLogEntry } from '@gdb/shared/components/run.schemas';
import type { SdkFunction } from '@gdb/shared/sdk/sdk.schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../platform/config.ts';
import type { JsonParts } from '../platform/files/json-parts.ts';
import { CallerGate } from './caller-gate.ts';
import { editorTests } from './editor-tests.ts';
import { type CsvPieces, execute, type LogReceiver, type RunLimits } from './executor.ts';
import { type ComponentGraph, type DocumentSource, loadGraph } from './graph.ts';
import { IsolatePool } from './isolate-pool.ts';
import { programBuilds } from './programs.ts';
import { RunFailure } from './run-failure.ts';
import type { SdkModules } from './sdk-modules.ts';

/** A run of a component version on a payload, as the imports module and the test runner ask for it. */
export interface ComponentRunRequest {
  /** The component version to run. */
  componentId: string;
  /** Its documents, when the caller has read them already (a test run's access check): not read again. */
  graph?: ComponentGraph;
  /**
   * JSON text of ctx.input: an object with a value for each input port name, e.g. `{"rows":[…]}`;
   * or that text in parts, whose bytes are handed over to the run (see the executor's `input`).
   */
  inputJson: string | JsonParts;
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
  /** Each log entry as the run writes it, with its index in `logs` (a test run's live lines). */
  onLog?: LogReceiver;
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
const MAX_LOG_ENTRY_CHARS = 10_000;

/** The limits of a run: those given, the configured ones for the rest. */
function limitsOf(settings: Config['runtime'], given: Partial<RunLimits> = {}): RunLimits {
  return {
    memoryMiB: given.memoryMiB ?? settings.memoryMiB,
    timeoutMs: given.timeoutMs ?? settings.timeoutMs,
    maxOutputChars: given.maxOutputChars ?? settings.maxOutputChars,
    maxLogEntries: given.maxLogEntries ?? settings.maxLogEntries,
    maxLogChars: given.maxLogChars ?? settings.maxLogChars,
    maxLogEntryChars: given.maxLogEntryChars ?? Math.min(MAX_LOG_ENTRY_CHARS, settings.maxLogChars),
  };
}

/** Test runs one user may have going: the setting, but never every isolate of the test lane when it has more than one. */
const testRunsPerCaller = (settings: Pick<Config['runtime'], 'testRunsPerUser' | 'testPoolSize'>) =>
  Math.min(settings.testRunsPerUser, Math.max(1, settings.testPoolSize - 1));

/**
 * The component runtime (docs/product.md §16): builds a component version into one program, keeps isolates
 * warm and runs programs in them with limits, cancel and bounded logs. See runtime/README.md.
 */
export function runtimeService(options: {
  settings: Config['runtime'];
  log: FastifyBaseLogger;
  source: DocumentSource;
  /** The npm modules SDK functions may use (the allow-list), bundled once per name@version. */
  sdkModules: SdkModules;
}) {
  const { settings, log, source, sdkModules } = options;
  const onCatastrophicError = (message: string) =>
    log.fatal({ message }, 'an isolate failed beyond recovery; restart the server process');
  // Test runs from the editors get isolates of their own, so no number of them can hold up an import.
  const pool = new IsolatePool({ size: settings.poolSize, queueLimit: settings.queueLimit, onCatastrophicError });
  const testPool = new IsolatePool({
    size: settings.testPoolSize,
    queueLimit: settings.queueLimit,
    onCatastrophicError,
  });
  // One user never holds every test isolate: another user's test run finds one free whatever the first runs.
  const testGate = new CallerGate({ running: testRunsPerCaller(settings), waiting: settings.testQueuePerUser });
  // Syntax checks only compile (no user code runs), so one isolate of their own serves both lanes without making either wait.
  const syntaxPool = new IsolatePool({ size: 1, queueLimit: settings.queueLimit, onCatastrophicError });
  const { program, sdkProgram } = programBuilds({ settings, source, syntaxPool, sdkModules });

  /** Runs a component version in the isolates of one lane; throws a RunFailure when it fails. */
  async function runIn(lane: IsolatePool, request: ComponentRunRequest): Promise<ComponentRunOutcome> {
    const started = performance.now();
    const built = await program(request.componentId, request.graph ? { graph: request.graph } : {});
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
        onLog: request.onLog,
      },
      limitsOf(settings, request.limits),
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
    opts: { limits?: Partial<RunLimits>; signal?: AbortSignal; lane?: IsolatePool; onLog?: LogReceiver } = {},
  ): Promise<{ outputJson: string; logs: RunLogEntry[] }> {
    const lane = opts.lane ?? pool;
    const answer = await execute(
      lane,
      await sdkProgram(fn),
      { input: argsJson, rtContext: 'null', check: false, tables: false, csv: [], onLog: opts.onLog },
      limitsOf(settings, opts.limits),
      opts.signal,
    );
    if (!answer.ok) throw new RunFailure(answer.failure, answer.error, { logs: answer.logs });
    return { outputJson: answer.output, logs: answer.logs };
  }

  return {
    program,
    /** A component version with everything it names, as its program would be built from them (the access check of a test run reads it). */
    graph: (componentId: string) => loadGraph(source, componentId),
    runComponent,
    runSdkFunction,
    ...editorTests({
      testGate,
      runComponent: (request) => runIn(testPool, request),
      runSdkFunction: (fn, argsJson, opts) => runSdkFunction(fn, argsJson, { ...opts, lane: testPool }),
    }),

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

export type RuntimeService = ReturnType<typeof runtimeService>;
