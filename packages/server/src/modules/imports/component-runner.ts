import type { RunLogEntry } from '@gdb/shared/components/run.schemas';
import type { JsonParts } from '../../platform/files/json-parts.ts';

/** What a run asks of the component runtime (the runtime service's `runComponent` has this shape). */
export interface ComponentRunRequest {
  componentId: string;
  /**
   * JSON text of ctx.input, whole or in parts: an object with the rows of each data source by
   * dataSubKind. Byte parts are handed over to the run.
   */
  inputJson: string | JsonParts;
  /** JSON text of ctx.rt_context. */
  rtContextJson?: string;
  /** Rows travel as tables both ways (see platform/files/row-tables.ts and the runtime's `tables`). */
  tables?: boolean;
  /** Output ports to answer as CSV files when their rows allow it (see the runtime's `csvPorts`). */
  csvPorts?: string[];
  /** Those files handed over in pieces as they are written (see the runtime's `csvPieces`). */
  csvPieces?: { bytes: number; onPiece: (port: string, bytes: Uint8Array) => void };
  /** Limits of this run: isolate heap and wall-clock time. */
  limits?: { memoryMiB?: number; timeoutMs?: number };
  signal?: AbortSignal;
}

export interface ComponentRunAnswer {
  /** JSON text of ctx.output: a value for each output port that produced one. */
  outputJson: string;
  /** Output ports whose value is a column table (runs asked with `tables`). */
  outputTables?: string[];
  /** CSV files (UTF-8 bytes) of output ports asked as `csvPorts`, unchecked: the last piece of each with `csvPieces`. */
  outputCsv?: Record<string, Uint8Array>;
  logs: RunLogEntry[];
}

/** Runs a pipeline's component; a failure is thrown, carrying the run's logs when it has some. */
export interface ComponentRunner {
  runComponent(request: ComponentRunRequest): Promise<ComponentRunAnswer>;
}

/** The log lines a failed run wrote before failing, when the error carries them. */
export function logsOfFailure(error: unknown): RunLogEntry[] {
  if (typeof error !== 'object' || error === null || !('logs' in error) || !Array.isArray(error.logs)) return [];
  return error.logs.filter(
    (l: unknown): l is RunLogEntry =>
      typeof l === 'object' && l !== null && 'level' in l && 'message' in l && typeof l.message === 'string',
  );
}
