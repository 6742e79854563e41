import type { RunLogEntry } from '@gdb/shared/components/run.schemas';
import ivm from 'isolated-vm';
import { z } from 'zod';
import { errorMessage } from '../platform/error-message.ts';
import { handOverable, type JsonParts } from '../platform/files/json-parts.ts';
import type { Program } from './codegen.ts';
import type { IsolatePool, Lease } from './isolate-pool.ts';
import { RunFailure } from './run-failure.ts';
import type { RunOptions } from './sandbox/types.d.ts';

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
  /**
   * Output ports answered as CSV files, UTF-8 bytes (runs asked with `csv` ports), unchecked: what
   * is left of each file after the pieces sent while it was written (see `CsvPieces`).
   */
  csv: Record<string, Uint8Array>;
  /** Whether a failed run failed in its code or in writing its answer. */
  failure: 'code' | 'output';
  /** JSON text of the final rt_context. */
  rtContext: string;
  logs: RunLogEntry[];
}

/**
 * How a run hands over the CSV files it writes while it writes them: a piece of about `bytes` bytes
 * of whole lines at a time, given to `onPiece` in order as it comes (the file's first piece starts
 * with its header line), each one checked by nothing but its port, its order and the output limit:
 * the receiver checks the bytes. A file's last piece is the one answered in `csv`.
 */
export interface CsvPieces {
  bytes: number;
  onPiece: (port: string, bytes: Uint8Array) => void;
}

/** Pieces of CSV file a run may send, all ports together. */
const MAX_CSV_PIECES = 100_000;

const answerSchema = z.object({
  ok: z.boolean(),
  output: z.string(),
  error: z.string(),
  failure: z.enum(['code', 'output']).catch('code'),
  tables: z.array(z.string()).max(10_000).catch([]),
  csv: z.array(z.string()).max(10_000).catch([]),
  csvPieces: z.record(z.string(), z.number()).catch({}),
  rtContext: z.string(),
  logs: z.array(z.object({ level: z.string(), message: z.string(), date: z.string() })),
});

/** One log entry bounded on the server's side: its message cut, its level one of the four, its date short. */
function boundedEntry(entry: { level: string; message: string; date: string }, limits: RunLimits): RunLogEntry {
  const message =
    entry.message.length > limits.maxLogEntryChars ? `${entry.message.slice(0, limits.maxLogEntryChars)}…` : entry.message;
  const level = entry.level === 'warn' || entry.level === 'error' || entry.level === 'success' ? entry.level : 'info';
  return { level, message, date: entry.date.slice(0, 40) };
}

/** Re-bounds the logs on the server's side: the program could have changed its own library. */
function boundedLogs(logs: { level: string; message: string; date: string }[], limits: RunLimits): RunLogEntry[] {
  const out: RunLogEntry[] = [];
  let chars = 0;
  for (const entry of logs.slice(0, limits.maxLogEntries + 1)) {
    const bounded = boundedEntry(entry, limits);
    chars += bounded.message.length;
    if (chars > limits.maxLogChars + limits.maxLogEntryChars) break;
    out.push(bounded);
  }
  return out;
}

/**
 * Receives each log entry as the run writes it, before the answer, for a receiver that shows them
 * live (a test run's lines). Entries are bounded as the answer's are and must come in order, each
 * the next index: the answer's logs hold the same entries at the same indexes (`boundedLogs`).
 */
export type LogReceiver = (entry: RunLogEntry, seq: number) => void;

/** The receiving end of a run's live log entries: what arrives out of order, not text or past the limits is dropped; closed, it passes nothing on. */
function logReceiver(onLog: LogReceiver | undefined, limits: RunLimits) {
  let next = 0;
  let chars = 0;
  let open = true;
  const receive = (seq: unknown, level: unknown, message: unknown, date: unknown) => {
    if (!open || !onLog || seq !== next || next > limits.maxLogEntries) return;
    if (typeof level !== 'string' || typeof message !== 'string' || typeof date !== 'string') return;
    const entry = boundedEntry({ level, message, date }, limits);
    chars += entry.message.length;
    if (chars > limits.maxLogChars + limits.maxLogEntryChars) {
      open = false;
      return;
    }
    next += 1;
    onLog(entry, seq);
  };
  return {
    callback: onLog ? new ivm.Callback(receive, { ignored: true }) : undefined,
    close() {
      open = false;
    },
  };
}

/**
 * The program's answer, read and bounded, with the names of the CSV files it wrote (taken after,
 * one by one) and the pieces it says it sent of each.
 */
function readAnswer(
  value: unknown,
  limits: RunLimits,
): Omit<RawAnswer, 'csv'> & { csvPorts: string[]; csvPieces: Record<string, number> } {
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
    csvPieces: a.csvPieces,
    error: a.error.slice(0, 10_000),
    failure: a.failure,
    rtContext: a.rtContext,
    logs: boundedLogs(a.logs, limits),
  };
}

function notAnswer(): RunFailure {
  return new RunFailure('crash', 'The program answered something that is not a run result.');
}

function tooLarge(limits: RunLimits): RunFailure {
  return new RunFailure('output', `The output is larger than ${limits.maxOutputChars} characters of JSON and bytes of CSV.`);
}

/**
 * The receiving end of the pieces of CSV file a run sends (see `CsvPieces`): a piece out of order,
 * for a port not asked for, not bytes, past the output limit or past the number of pieces ends
 * the run with `failed`, and nothing more is passed on. Closed, it passes nothing on.
 */
function pieceReceiver(pieces: CsvPieces | undefined, asked: readonly string[], limits: RunLimits, stop: () => void) {
  const received = new Map<string, number>();
  let count = 0;
  let size = 0;
  let open = true;
  let failed: RunFailure | undefined;
  const fail = (failure: RunFailure) => {
    failed ??= failure;
    stop();
  };
  const receive = (port: unknown, seq: unknown, bytes: unknown) => {
    if (!open || failed || !pieces) return;
    if (typeof port !== 'string' || !asked.includes(port) || !(bytes instanceof Uint8Array)) return fail(notAnswer());
    const next = received.get(port) ?? 0;
    if (seq !== next || ++count > MAX_CSV_PIECES) return fail(notAnswer());
    size += bytes.byteLength;
    if (size > limits.maxOutputChars) return fail(tooLarge(limits));
    received.set(port, next + 1);
    pieces.onPiece(port, bytes);
  };
  return {
    /** What the entry point gets to send pieces with: nothing for a run asked for none. */
    callback: pieces ? new ivm.Callback(receive, { ignored: true }) : undefined,
    /** The pieces received of a port. */
    of: (port: string) => received.get(port) ?? 0,
    size: () => size,
    failed: () => failed,
    close() {
      open = false;
    },
  };
}

/**
 * Waits until every piece a run says it sent has been received: each is passed on as it is sent,
 * before the answer comes back; a few turns of the event loop are given to any still on its way.
 */
async function allPiecesIn(said: Record<string, number>, ports: readonly string[], of: (port: string) => number) {
  const missing = () => ports.some((port) => (Object.hasOwn(said, port) ? said[port] : 0) !== of(port));
  for (let turn = 0; turn < 10 && missing(); turn++) await new Promise((resolve) => setImmediate(resolve));
  if (missing()) throw notAnswer();
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
  if (chars > limits.maxOutputChars) throw tooLarge(limits);
  return csv;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function classify(error: unknown, killedBy: 'timeout' | 'cancel' | null, limits: RunLimits): RunFailure {
  if (error instanceof RunFailure) return error;
  const message = errorMessage(error);
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
 * The payload as the entry point takes it: its text as it is, or its parts as one copy in which the
 * bytes that can be are handed over (their memory moves into the isolate: nothing is copied in the
 * event loop's thread, and they are decoded in the isolate's). The caller must not read them again.
 */
function payloadArgument(input: string | JsonParts): string | ivm.Copy<unknown> {
  if (typeof input === 'string') return input;
  const handed = new Set<ArrayBuffer>();
  for (const part of input) {
    if (typeof part !== 'string' && handOverable(part)) handed.add(part.buffer as ArrayBuffer);
  }
  return new ivm.ExternalCopy([...input], { transferList: [...handed] }).copyInto({ release: true, transferIn: true });
}

/**
 * Runs a program's entry point in a fresh context of a pooled isolate, with the payload (JSON text,
 * whole or in parts: see `payloadArgument`) and the rt_context as JSON text; the answer comes back
 * as text too. Cancelling (the signal) or passing
 * the time limit disposes the isolate at once; so does running out of memory.
 */
export async function execute(
  pool: IsolatePool,
  program: Program,
  args: {
    input: string | JsonParts;
    rtContext: string;
    check: boolean;
    tables: boolean;
    csv: string[];
    csvPieces?: CsvPieces;
    /** Each log entry as it is written (see `LogReceiver`). */
    onLog?: LogReceiver;
  },
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
  const pieces = pieceReceiver(args.csvPieces, args.csv, limits, () => kill('cancel'));
  const logs = logReceiver(args.onLog, limits);
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
      csvPieceBytes: args.csvPieces?.bytes ?? 0,
    } satisfies RunOptions);
    const value: unknown = await context.evalClosure(
      'return __gdbMain($0, $1, $2, $3, $4);',
      [payloadArgument(args.input), args.rtContext, options, pieces.callback, logs.callback],
      { result: { promise: true, copy: true }, timeout: remaining() },
    );
    const { csvPorts, csvPieces, ...answer } = readAnswer(value, limits);
    await allPiecesIn(csvPieces, csvPorts, pieces.of);
    pieces.close();
    const failed = pieces.failed();
    if (failed) throw failed;
    const csv = await csvFiles(context, csvPorts, args.csv, answer.output.length + pieces.size(), limits, remaining);
    reusable = true;
    return { ...answer, csv };
  } catch (error) {
    throw pieces.failed() ?? classify(error, killedBy, limits);
  } finally {
    pieces.close();
    logs.close();
    clearTimeout(backstop);
    signal?.removeEventListener('abort', onAbort);
    lease.runs += 1;
    if (context && !lease.isolate.isDisposed) context.release();
    if (reusable) reusable = stillHealthy(lease);
    pool.release(lease, reusable);
  }
}
