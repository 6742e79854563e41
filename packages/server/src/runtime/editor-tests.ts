import type { RunLogEntry, RunResult } from '@gdb/shared/components/run.schemas';
import type { SdkFunction } from '@gdb/shared/sdk/sdk.schemas';
import type { CallerGate } from './caller-gate.ts';
import type { LogReceiver } from './executor.ts';
import type { ComponentGraph } from './graph.ts';
import { RunFailure } from './run-failure.ts';

/** How the editors' test runs reach the runtime: the callers' places, and runs in the test lane. */
interface TestLane {
  testGate: CallerGate;
  /** Runs a component version in the test lane (JSON text in and out); throws a RunFailure when it fails. */
  runComponent: (request: {
    componentId: string;
    inputJson: string;
    rtContextJson: string;
    signal: AbortSignal;
    onLog?: LogReceiver;
  }) => Promise<{ outputJson: string; rtContextJson: string; logs: RunLogEntry[] }>;
  /** Runs an SDK function version in the test lane on an argument array given as JSON text. */
  runSdkFunction: (
    fn: SdkFunction,
    argsJson: string,
    opts: { signal?: AbortSignal; onLog?: LogReceiver },
  ) => Promise<{ outputJson: string; logs: RunLogEntry[] }>;
}

/** A named test run's log lines as they go out live: each entry as written, then what the answer holds that did not go out. */
export interface RunLines {
  push: LogReceiver;
  end(logs: readonly RunLogEntry[]): Promise<void>;
}

/** Opens a named run's live lines (taking its id: what it throws refuses the run). */
type OpenLines = () => Promise<RunLines>;

/**
 * Runs `body` in one of the caller's places (`signal` stops the wait and the run): a named run's
 * lines are opened once it has its place, each entry passed on as written, and ended with the
 * answer's lines or the failure's. Failures read 'Execute error : {detail}'.
 */
async function inPlace<T extends { logs: RunLogEntry[] }>(
  gate: CallerGate,
  userId: string,
  run: { signal?: AbortSignal | undefined; lines?: OpenLines | undefined },
  body: (onLog: LogReceiver | undefined) => Promise<T>,
): Promise<T> {
  let lines: RunLines | undefined;
  try {
    const leave = await gate.enter(userId, run.signal);
    try {
      lines = await run.lines?.();
    } catch (error) {
      leave();
      throw error;
    }
    const result = await body(lines ? (entry, seq) => lines?.push(entry, seq) : undefined).finally(leave);
    await lines?.end(result.logs);
    return result;
  } catch (error) {
    await lines?.end(error instanceof RunFailure ? error.logs : []);
    if (error instanceof RunFailure) throw error.withPrefix('Execute error : ');
    throw error;
  }
}

/** Test runs from the component and SDK editors, in the callers' places, each stoppable by its caller. */
export function editorTests({ testGate, runComponent, runSdkFunction }: TestLane) {
  const tests = new Map<string, Set<AbortController>>();
  const testKey = (userId: string, componentId: string) => `${userId} ${componentId}`;

  return {
    /**
     * A test run from the component editor: payload and rt_context in, the run result out; the
     * caller can stop it with `stopTest`, also while it waits for one of the caller's places; so
     * does `gone` (the caller's request closed). A named run's `lines` go out live (see inPlace).
     */
    async testComponent(
      userId: string,
      componentId: string,
      payload: object,
      rtContext: object,
      opts: { gone?: AbortSignal; graph?: ComponentGraph; lines?: OpenLines } = {},
    ): Promise<RunResult> {
      const { gone, graph } = opts;
      const key = testKey(userId, componentId);
      const controller = new AbortController();
      gone?.addEventListener('abort', () => controller.abort(), { once: true });
      const running = tests.get(key) ?? new Set<AbortController>();
      running.add(controller);
      tests.set(key, running);
      try {
        return await inPlace(testGate, userId, { signal: controller.signal, lines: opts.lines }, async (onLog) => {
          const outcome = await runComponent({
            componentId,
            inputJson: JSON.stringify(payload),
            rtContextJson: JSON.stringify(rtContext),
            signal: controller.signal,
            ...(graph ? { graph } : {}),
            ...(onLog ? { onLog } : {}),
          });
          return { output: objectFrom(outcome.outputJson), logs: outcome.logs, rt_context: objectFrom(outcome.rtContextJson) };
        });
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

    /**
     * Runs an SDK function for its editor's test area, in the caller's places, cancelled when `gone`
     * aborts (the caller's request closed). A named run's `lines` go out live (see inPlace).
     */
    testSdkFunction(
      userId: string,
      fn: SdkFunction,
      args: unknown[],
      opts: { gone?: AbortSignal; lines?: OpenLines } = {},
    ): Promise<{ output: unknown; logs: RunLogEntry[] }> {
      const { gone } = opts;
      return inPlace(testGate, userId, { signal: gone, lines: opts.lines }, async (onLog) => {
        const outcome = await runSdkFunction(fn, JSON.stringify(args), {
          ...(gone ? { signal: gone } : {}),
          ...(onLog ? { onLog } : {}),
        });
        return { output: JSON.parse(outcome.outputJson), logs: outcome.logs };
      });
    },
  };
}

/** A JSON object read from text the program wrote (JSON.parse never touches prototypes). */
function objectFrom(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value));
}
