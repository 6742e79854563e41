import { RunFailure } from './run-failure.ts';

export interface CallerGateLimits {
  /** Runs one caller may have going at once. */
  running: number;
  /** Runs one caller may have waiting for one of those places; more are refused. */
  waiting: number;
}

interface Waiter {
  admit: () => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

interface Line {
  running: number;
  waiters: Waiter[];
}

export const GATE_MESSAGES = {
  busy: 'You have too many test runs going or waiting; wait for one to end.',
  cancelled: 'The run was cancelled.',
} as const;

/**
 * Places per caller: each caller has a few runs going and a short line of runs waiting, so one
 * caller's runs never fill the pool or its waiting line for everyone else.
 */
export class CallerGate {
  readonly #limits: CallerGateLimits;
  readonly #lines = new Map<string, Line>();

  constructor(limits: CallerGateLimits) {
    this.#limits = limits;
  }

  /** Waits for one of the caller's places; answers the function that gives it back. */
  enter(caller: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new RunFailure('cancelled', GATE_MESSAGES.cancelled));
    const line = this.#line(caller);
    if (line.running < this.#limits.running) {
      line.running += 1;
      return Promise.resolve(this.#leaver(caller, line));
    }
    if (line.waiters.length >= this.#limits.waiting) {
      this.#forget(caller, line);
      return Promise.reject(new RunFailure('busy', GATE_MESSAGES.busy));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => resolve(this.#leaver(caller, line)),
        signal,
        onAbort: () => {
          line.waiters.splice(line.waiters.indexOf(waiter), 1);
          this.#forget(caller, line);
          reject(new RunFailure('cancelled', GATE_MESSAGES.cancelled));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      line.waiters.push(waiter);
    });
  }

  /** Runs going and waiting for a caller. */
  stats(caller: string): { running: number; waiting: number } {
    const line = this.#lines.get(caller);
    return { running: line?.running ?? 0, waiting: line?.waiters.length ?? 0 };
  }

  #line(caller: string): Line {
    let line = this.#lines.get(caller);
    if (!line) {
      line = { running: 0, waiters: [] };
      this.#lines.set(caller, line);
    }
    return line;
  }

  /** The give-back of one place: hands it to the caller's next waiting run, once. */
  #leaver(caller: string, line: Line): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = line.waiters.shift();
      if (next) {
        next.signal?.removeEventListener('abort', next.onAbort);
        next.admit();
        return;
      }
      line.running -= 1;
      this.#forget(caller, line);
    };
  }

  #forget(caller: string, line: Line): void {
    if (line.running === 0 && line.waiters.length === 0) this.#lines.delete(caller);
  }
}
