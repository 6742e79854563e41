// The entry points the server calls with text, answered with text (executor.ts).
import { assign, errorText, freeze, hasOwn, isArray, isObject, keysOf, parseJson, RunError, setOwn, toJson } from './base.ts';
import { fromTables, pieceSenders, tablesOf } from './column-tables.ts';
import { rootFrame } from './failures.ts';
import { createLogger } from './logs.ts';
import { invoke } from './runner.ts';
import { payloadText } from './text-decoding.ts';
import type { Answer, Def, Entry, Env, Logger, RunOptions } from './types.d.ts';

function answer(ok: boolean, fields: Partial<Answer>, logger: Logger, env: { rt: unknown }): Answer {
  let rtContext = 'null';
  try {
    rtContext = toJson(env.rt) ?? 'null';
  } catch {
    rtContext = 'null';
  }
  return assign(
    {
      ok,
      output: '',
      tables: [],
      csv: [],
      csvPieces: {},
      error: '',
      failure: 'code' as const,
      rtContext,
      logs: logger.entries(),
    },
    fields,
  );
}

function writeOutput(value: unknown, options: RunOptions): string {
  let text: string;
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

/** The failure's answer of a run: its message, and whether the code or the answer is to blame. */
function failed(error: unknown, logger: Logger, env: { rt: unknown }): Answer {
  return answer(false, { error: errorText(error), failure: error instanceof RunError ? error.kind : 'code' }, logger, env);
}

/** What a run with `tables` answers: ports of rows as column tables, the CSV files it wrote. */
function tablesAnswer(output: unknown, options: RunOptions, emit: unknown, logger: Logger, env: Env) {
  const pieces = pieceSenders(options, emit);
  const { value, tables, csv } = tablesOf(output, isArray(options.csv) ? options.csv : [], pieces.of);
  const text = writeOutput(value, options);
  let chars = text.length + pieces.size();
  for (const key of keysOf(csv)) chars += (csv[key] as Uint8Array).byteLength;
  if (chars > options.maxOutputChars) {
    throw new RunError(`The output is larger than ${options.maxOutputChars} characters of JSON and bytes of CSV.`, 'output');
  }
  // The pieces sent of each file answered: the server holds them to what it received.
  const csvPieces: Record<string, number> = {};
  for (const key of keysOf(csv)) setOwn(csvPieces, key, hasOwn(pieces.counts, key) ? pieces.counts[key] : 0);
  return { files: csv, answer: answer(true, { output: text, tables, csv: keysOf(csv), csvPieces }, logger, env) };
}

/**
 * The entry point of a component's program. Its answer names the CSV files it wrote; the server
 * then takes each one by itself with `csvFile`, a copy of its bytes it receives as they are, where
 * a file inside the answer would be copied twice (written into the answer's serialised form, then
 * read out of it).
 */
export function entry(root: Def): Entry {
  let files: Record<string, Uint8Array | undefined> = {};
  /** `inputText` is the payload's JSON text, whole or in parts. */
  const run = async (
    inputText: string | (string | Uint8Array)[],
    rtText: string,
    optionsText: string,
    emit?: unknown,
    logSink?: unknown,
  ) => {
    files = {};
    const options: RunOptions = parseJson(optionsText);
    const logger = createLogger(options, logSink);
    (globalThis as { console: unknown }).console = logger.console;
    const env: Env = { rt: {}, log: logger.log, check: options.check !== false };
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
      const done = tablesAnswer(output, options, emit, logger, env);
      files = done.files;
      return done.answer;
    } catch (error) {
      return failed(error, logger, env);
    }
  };
  /** A CSV file of the last run, once: the server holds its copy after. */
  const csvFile = (port: string) => {
    const file = files[port];
    files[port] = undefined;
    return file;
  };
  return freeze(assign(run, { csvFile }));
}

/** The entry point of an SDK function's program: its arguments as a JSON array. */
export function sdkEntry(
  name: string,
  fn: (...args: unknown[]) => unknown,
): (argsText: string, rtText: string, optionsText: string, emit?: unknown, logSink?: unknown) => Promise<Answer> {
  return async (argsText, _rtText, optionsText, _emit, logSink) => {
    const options: RunOptions = parseJson(optionsText);
    const logger = createLogger(options, logSink);
    (globalThis as { console: unknown }).console = logger.console;
    const env = { rt: null };
    try {
      const args = parseJson(argsText);
      if (!isArray(args)) throw new RunError('The payload must be an array of arguments.');
      let result: unknown;
      try {
        result = await fn(...args);
      } catch (error) {
        throw new RunError(`SDK function "${name}": ${errorText(error)}`);
      }
      return answer(true, { output: writeOutput(result === undefined ? null : result, options) }, logger, env);
    } catch (error) {
      return failed(error, logger, env);
    }
  };
}
