import type { RunLogEntry } from '@gdb/shared/components/run.schemas';
import ivm from 'isolated-vm';
import { z } from 'zod';
import type { Program } from './codegen.ts';
import type { IsolatePool, Lease } from './isolate-pool.ts';
import { RunFailure } from './run-failure.ts';

/** The limits of one run; every one of them is enforced by the server, whatever the program does. */
export interface RunLimits {
  /** Heap of the isolate, in MiB (ArrayBuffers included). */
  memoryMiB: number;
  /** Wall-clock time of the run, in milliseconds. */
  timeoutMs: number;
  /** Longest answer, in characters of JSON (and bytes of the CSV files it names). */
  maxOutputChars: number;
  maxLogEntries: number;
  /** Characters of all log messages together. */
  maxLogChars: number;
  /** Characters of one log message (longer ones are cut). */
  maxLogEntryChars: number;
}

/** What the program answered, read and bounded on the server's side. */
export interface RawAnswer {
  ok: boolean;
  /** JSON text of ctx.output (or of the SDK function's result). */
  output: string;
  error: string;
  /** Output ports answered as column tables (runs asked with `tables`). */
  tables: string[];
  /** Output ports answered as CSV files, UTF-8 bytes (runs asked with `csv` ports), unchecked. */
  csv: Record<string, Uint8Array>;
  /** Whether a failed run failed in its code or in writing its answer. */
  failure: 'code' | 'output';
  /** JSON text of the final rt_context. */
  rtContext: string;
  logs: RunLogEntry[];
}

const answerSchema = z.object({
  ok: z.boolean(),
  output: z.string(),
  error: z.string(),
  failure: z.enum(['code', 'output']).catch('code'),
  tables: z.array(z.string()).max(10_000).catch([]),
  csv: z.array(z.string()).max(10_000).catch([]),
  rtContext: z.string(),
  logs: z.array(z.object({ level: z.string(), message: z.string(), date: z.string() })),
});

/** Re-bounds the logs on the server's side: the program could have changed its own library. */
function boundedLogs(logs: { level: string; message: string; date: string }[], limits: RunLimits): RunLogEntry[] {
  const out: RunLogEntry[] = [];
  let chars = 0;
  for (const entry of logs.slice(0, limits.maxLogEntries + 1)) {
    const message =
      entry.message.length > limits.maxLogEntryChars ? `${entry.message.slice(0, limits.maxLogEntryChars)}…` : entry.message;
    chars += message.length;
    if (chars > limits.maxLogChars + limits.maxLogEntryChars) break;
    const level = entry.level === 'warn' || entry.level === 'error' || entry.level === 'success' ? entry.level : 'info';
    out.push({ level, message, date: entry.date.slice(0, 40) });
  }
  return out;
}

/** The program's answer, read and bounded, with the names of the CSV files it wrote (taken after, one by one). */
function readAnswer(value: unknown, limits: RunLimits): Omit<RawAnswer, 'csv'> & { csvPorts: string[] } {
  const logs = value !== null && typeof value === 'object' && 'logs' in value && Array.isArray(value.logs) ? value.logs : [];
  const parsed = answerSchema.safeParse(
    value === null || typeof value !== 'object' ? value : { ...value, logs: logs.slice(0, limits.maxLogEntries + 1) },
  );
  if (!parsed.success) throw notAnswer();
  const a = parsed.data;
  if (a.rtContext.length > limits.maxOutputChars) {
    throw new RunFailure('output', `The rt_context is larger than ${limits.maxOutputChars} characters of JSON.`);
  }
  return {
    ok: a.ok,
    output: a.output,
    tables: a.tables,
    csvPorts: a.csv,
    error: a.error.slice(0, 10_000),
    failure: a.failure,
    rtContext: a.rtContext,
    logs: boundedLogs(a.logs, limits),
  };
}

function notAnswer(): RunFailure {
  return new RunFailure('crash', 'The program answered something that is not a run result.');
}

/**
 * The CSV files the answer names among the ports asked for, each taken from the program as one
 * copy handed over to this side; then the output, CSV bytes included, checked against its limit.
 */
async function csvFiles(
  context: ivm.Context,
  named: readonly string[],
  asked: readonly string[],
  outputChars: number,
  limits: RunLimits,
  remaining: () => number,
): Promise<Record<string, Uint8Array>> {
  const csv: Record<string, Uint8Array> = {};
  let chars = outputChars;
  for (const port of new Set(named)) {
    if (!asked.includes(port) || chars > limits.maxOutputChars) continue;
    const copy: unknown = await context.evalClosure('return __gdbMain.csvFile($0);', [port], {
      result: { externalCopy: true },
      timeout: remaining(),
    });
    const bytes = copy instanceof ivm.ExternalCopy ? copy.copy({ transferIn: true }) : undefined;
    if (!(bytes instanceof Uint8Array)) throw notAnswer();
    chars += bytes.byteLength;
    csv[port] = bytes;
  }
  if (chars > limits.maxOutputChars) {
    throw new RunFailure('output', `The output is larger than ${limits.maxOutputChars} characters of JSON and bytes of CSV.`);
  }
  return csv;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function classify(error: unknown, killedBy: 'timeout' | 'cancel' | null, limits: RunLimits): RunFailure {
  if (error instanceof RunFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (killedBy === 'cancel') return new RunFailure('cancelled', 'The run was cancelled.');
  if (killedBy === 'timeout' || message.includes('Script execution timed out')) {
    return new RunFailure('timeout', `The run took longer than its limit of ${seconds(limits.timeoutMs)} and was stopped.`);
  }
  if (message.includes('memory limit') || message.includes('exhausted v8 heap')) {
    return new RunFailure('memory', `The run used more than its limit of ${limits.memoryMiB} MiB of memory and was stopped.`);
  }
  if (message.includes('Isolate was disposed')) return new RunFailure('crash', 'The run was stopped: its isolate ended.');
  if (error instanceof Error && error.name === 'SyntaxError') return new RunFailure('build', `SyntaxError: ${message}`);
  const name = error instanceof Error && error.name !== 'Error' ? `${error.name}: ` : '';
  return new RunFailure('code', `${name}${message}`);
}

/** Heap left over after a run above this share of the limit retires the isolate instead of reusing it. */
const REUSE_HEAP_SHARE = 0.5;

/** Read right after the run, while the isolate is idle, so the synchronous read does not wait. */
function stillHealthy(lease: Lease): boolean {
  if (lease.isolate.isDisposed) return false;
  try {
    const heap = lease.isolate.getHeapStatisticsSync();
    return heap.used_heap_size + heap.externally_allocated_size < lease.memoryMiB * 1024 * 1024 * REUSE_HEAP_SHARE;
  } catch {
    return false;
  }
}

/**
 * Runs a program's entry point in a fresh context of a pooled isolate, with the payload and the
 * rt_context as JSON text; the answer comes back as text too. Cancelling (the signal) or passing
 * the time limit disposes the isolate at once; so does running out of memory.
 */
export async function execute(
  pool: IsolatePool,
  program: Program,
  args: { input: string; rtContext: string; check: boolean; tables: boolean; csv: string[] },
  limits: RunLimits,
  signal?: AbortSignal,
): Promise<RawAnswer> {
  const lease = await pool.acquire(limits.memoryMiB, signal);
  const started = performance.now();
  const remaining = () => Math.max(1, Math.ceil(limits.timeoutMs - (performance.now() - started)));
  let killedBy: 'timeout' | 'cancel' | null = null;
  const kill = (why: 'timeout' | 'cancel') => {
    killedBy ??= why;
    if (!lease.isolate.isDisposed) lease.isolate.dispose();
  };
  const onAbort = () => kill('cancel');
  signal?.addEventListener('abort', onAbort, { once: true });
  // The isolate's own timeout stops running code; this one also covers time spent outside it.
  const backstop = setTimeout(() => kill('timeout'), limits.timeoutMs + 250);
  let context: ivm.Context | undefined;
  let reusable = false;
  try {
    if (signal?.aborted) kill('cancel');
    const script = await pool.script(lease, program);
    context = await pool.context(lease, remaining());
    await script.run(context, { timeout: remaining() });
    const options = JSON.stringify({
      check: args.check,
      tables: args.tables,
      csv: args.csv,
      maxOutputChars: limits.maxOutputChars,
      maxLogEntries: limits.maxLogEntries,
      maxLogChars: limits.maxLogChars,
      maxLogEntryChars: limits.maxLogEntryChars,
    });
    const value: unknown = await context.evalClosure('return __gdbMain($0, $1, $2);', [args.input, args.rtContext, options], {
      result: { promise: true, copy: true },
      timeout: remaining(),
    });
    const { csvPorts, ...answer } = readAnswer(value, limits);
    const csv = await csvFiles(context, csvPorts, args.csv, answer.output.length, limits, remaining);
    reusable = true;
    return { ...answer, csv };
  } catch (error) {
    throw classify(error, killedBy, limits);
  } finally {
    clearTimeout(backstop);
    signal?.removeEventListener('abort', onAbort);
    lease.runs += 1;
    if (context && !lease.isolate.isDisposed) context.release();
    if (reusable) reusable = stillHealthy(lease);
    pool.release(lease, reusable);
  }
}
