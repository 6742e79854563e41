import { CODES, type Issue } from '@gdb/shared/api/envelope';
import type { RunLogEntry } from '@gdb/shared/components/run.schemas';
import { AppError } from '../platform/http/errors.ts';

/**
 * Why a run did not answer: its component graph does not build, its code threw, it hit a limit,
 * it was cancelled, or too many runs were already waiting.
 */
export type RunFailureReason = 'build' | 'code' | 'timeout' | 'memory' | 'output' | 'cancelled' | 'busy' | 'crash';

const STATUS: Record<RunFailureReason, [number, number]> = {
  build: [422, CODES.invalid],
  code: [422, CODES.invalid],
  timeout: [422, CODES.invalid],
  memory: [422, CODES.invalid],
  output: [422, CODES.invalid],
  cancelled: [409, CODES.conflict],
  busy: [429, CODES.tooMany],
  crash: [500, CODES.internal],
};

/** A failed run: its message names the component (and instance and port where it applies). */
export class RunFailure extends AppError {
  readonly reason: RunFailureReason;
  /** What the run logged before it failed (empty when it never started). */
  readonly logs: RunLogEntry[];

  constructor(reason: RunFailureReason, message: string, options: { logs?: RunLogEntry[]; issues?: Issue[] } = {}) {
    const [status, code] = STATUS[reason];
    super(status, code, message, options.issues);
    this.name = 'RunFailure';
    this.reason = reason;
    this.logs = options.logs ?? [];
  }

  /** The same failure with its message worded for a page, e.g. 'Execute error : {detail}'. */
  withPrefix(prefix: string): RunFailure {
    return new RunFailure(this.reason, `${prefix}${this.message}`, {
      logs: this.logs,
      ...(this.issues ? { issues: this.issues } : {}),
    });
  }
}

/** A component graph that cannot become a program; each problem names its component. */
export function buildFailure(problems: readonly { component: string; message: string }[]): RunFailure {
  const shown = problems.slice(0, 10).map((p) => p.message);
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
  return new RunFailure('build', `${shown.join('; ')}${more}`, {
    issues: problems.map((p) => ({ path: p.component, message: p.message })),
  });
}
