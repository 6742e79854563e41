import ivm from 'isolated-vm';
import type { Program } from './codegen.ts';
import { RunFailure } from './run-failure.ts';
import { PROGRAM_FILE } from './sandbox/failures.ts';

/** Runs in every fresh context before the program: removes what could escape the memory limit. */
const HARDEN = `(function () {
  // WebAssembly memories are reserved outside the isolate's heap and would not count against its limit.
  delete globalThis.WebAssembly;
})();`;

const SCRIPTS_PER_ISOLATE = 32;
/**
 * An isolate whose heap a run grew past this is disposed rather than kept warm: V8 keeps the pages
 * it took while the isolate lives, so one large run would hold them for every small run after it.
 */
const LARGE_HEAP_BYTES = 64 * 1024 * 1024;

function grewLarge(isolate: ivm.Isolate): boolean {
  const heap = isolate.getHeapStatisticsSync();
  return heap.total_heap_size + heap.externally_allocated_size > LARGE_HEAP_BYTES;
}

/** An isolate lent to one run at a time, with the programs it has compiled. */
export interface Lease {
  readonly isolate: ivm.Isolate;
  readonly memoryMiB: number;
  readonly harden: ivm.Script;
  /** Compiled programs by hash, oldest first. */
  readonly scripts: Map<string, ivm.Script>;
  /** A fresh, hardened context made while the isolate waited for its next run. */
  ready: Promise<ivm.Context | undefined> | undefined;
  runs: number;
  idleSince: number;
}

export interface PoolOptions {
  /** Most isolates alive at once (each runs one program at a time). */
  size: number;
  /** Most runs allowed to wait for an isolate; more are refused. */
  queueLimit: number;
  /** Idle isolates beyond the first are disposed after this long. */
  idleMs?: number;
  /** An isolate is replaced after this many runs, whatever their outcome. */
  maxRunsPerIsolate?: number;
  onCatastrophicError?: (message: string) => void;
}

interface Waiter {
  memoryMiB: number;
  resolve: (lease: Lease) => void;
  reject: (error: Error) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * Keeps isolates warm between runs so a small run costs a fresh context, not an isolate start.
 * A run that hit a limit hands its isolate back as not reusable and it is disposed.
 */
export class IsolatePool {
  private readonly idle: Lease[] = [];
  private readonly waiters: Waiter[] = [];
  private total = 0;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;
  private readonly idleMs: number;
  private readonly maxRuns: number;

  constructor(private readonly options: PoolOptions) {
    this.idleMs = options.idleMs ?? 5 * 60_000;
    this.maxRuns = options.maxRunsPerIsolate ?? 5000;
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.idleMs, 60_000));
    this.sweeper.unref();
  }

  /** An isolate with this memory limit, when one is free; waits in line otherwise. */
  acquire(memoryMiB: number, signal?: AbortSignal): Promise<Lease> {
    if (this.closed) return Promise.reject(new RunFailure('crash', 'The runtime is shutting down.'));
    if (signal?.aborted) return Promise.reject(new RunFailure('cancelled', 'The run was cancelled.'));
    const free = this.take(memoryMiB);
    if (free) return Promise.resolve(free);
    if (this.waiters.length >= this.options.queueLimit) {
      return Promise.reject(new RunFailure('busy', 'Too many component runs are waiting; try again in a moment.'));
    }
    return new Promise<Lease>((resolve, reject) => {
      const waiter: Waiter = {
        memoryMiB,
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(new RunFailure('cancelled', 'The run was cancelled.'));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Takes an isolate back: kept warm when the run ended normally with a small heap, disposed otherwise. */
  release(lease: Lease, reusable: boolean): void {
    if (!reusable || this.closed || lease.isolate.isDisposed || lease.runs >= this.maxRuns || grewLarge(lease.isolate)) {
      this.dispose(lease);
    } else {
      lease.idleSince = Date.now();
      lease.ready = this.prepare(lease);
      this.idle.push(lease);
    }
    this.serveWaiters();
  }

  /** A fresh context for the next run of this isolate, hardened; made ahead of time when possible. */
  async context(lease: Lease, timeoutMs: number): Promise<ivm.Context> {
    const ready = lease.ready;
    lease.ready = undefined;
    const prepared = ready ? await ready : undefined;
    if (prepared) return prepared;
    const context = await lease.isolate.createContext();
    await lease.harden.run(context, { timeout: timeoutMs });
    return context;
  }

  private prepare(lease: Lease): Promise<ivm.Context | undefined> {
    const made = (async () => {
      const context = await lease.isolate.createContext();
      await lease.harden.run(context, { timeout: 1000 });
      return context;
    })();
    return made.catch(() => undefined);
  }

  /** The compiled script of a program in this isolate (compiled once, kept for later runs). */
  async script(lease: Lease, program: Program): Promise<ivm.Script> {
    const cached = lease.scripts.get(program.hash);
    if (cached) {
      lease.scripts.delete(program.hash);
      lease.scripts.set(program.hash, cached);
      return cached;
    }
    const script = await lease.isolate.compileScript(program.code, { filename: PROGRAM_FILE });
    lease.scripts.set(program.hash, script);
    if (lease.scripts.size > SCRIPTS_PER_ISOLATE) {
      const [oldest, old] = lease.scripts.entries().next().value ?? [];
      if (oldest !== undefined && old) {
        lease.scripts.delete(oldest);
        old.release();
      }
    }
    return script;
  }

  stats(): { total: number; idle: number; waiting: number } {
    return { total: this.total, idle: this.idle.length, waiting: this.waiters.length };
  }

  /** Disposes every isolate and refuses the runs still waiting. */
  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const lease of this.idle.splice(0)) this.dispose(lease);
    for (const w of this.waiters.splice(0)) {
      w.signal?.removeEventListener('abort', w.onAbort);
      w.reject(new RunFailure('crash', 'The runtime is shutting down.'));
    }
  }

  private take(memoryMiB: number): Lease | undefined {
    const i = this.idle.findIndex((l) => l.memoryMiB === memoryMiB);
    if (i >= 0) return this.idle.splice(i, 1)[0];
    if (this.total < this.options.size) return this.create(memoryMiB);
    const other = this.idle.shift();
    if (other) {
      this.dispose(other);
      return this.create(memoryMiB);
    }
    return undefined;
  }

  private serveWaiters(): void {
    while (this.waiters.length > 0 && !this.closed) {
      const w = this.waiters[0];
      if (!w) return;
      const lease = this.take(w.memoryMiB);
      if (!lease) return;
      this.waiters.shift();
      w.signal?.removeEventListener('abort', w.onAbort);
      w.resolve(lease);
    }
  }

  private create(memoryMiB: number): Lease {
    const isolate = new ivm.Isolate({
      memoryLimit: memoryMiB,
      onCatastrophicError: (message) => this.options.onCatastrophicError?.(message),
    });
    this.total += 1;
    return {
      isolate,
      memoryMiB,
      harden: isolate.compileScriptSync(HARDEN),
      scripts: new Map(),
      ready: undefined,
      runs: 0,
      idleSince: Date.now(),
    };
  }

  private dispose(lease: Lease): void {
    this.total -= 1;
    if (!lease.isolate.isDisposed) lease.isolate.dispose();
  }

  private sweep(): void {
    const now = Date.now();
    for (let i = this.idle.length - 1; i >= 1; i--) {
      const lease = this.idle[i];
      if (lease && now - lease.idleSince > this.idleMs) {
        this.idle.splice(i, 1);
        this.dispose(lease);
      }
    }
  }
}
