/**
 * Keeps the event loop answering while work runs in many short steps on its thread: `pause()`
 * between two steps resolves at once while the slice begun this turn is younger than `sliceMs`,
 * and after that waits for `setImmediate`, so what is left runs after this turn's I/O callbacks,
 * at most one more slice of it before the loop reads its sockets again. Steps that never wait on
 * I/O (the embedded database's statements) would otherwise run back to back for as long as there
 * are any, and a socket read (an upload's next chunk) would wait for all of them.
 */
export class TurnSlicer {
  readonly #sliceMs: number;
  #sliceStart: number | undefined;

  constructor(sliceMs: number) {
    this.#sliceMs = sliceMs;
  }

  pause(): Promise<void> | undefined {
    const now = performance.now();
    if (this.#sliceStart === undefined) {
      this.#sliceStart = now;
      setImmediate(() => {
        this.#sliceStart = undefined;
      });
      return undefined;
    }
    if (now - this.#sliceStart < this.#sliceMs) return undefined;
    return new Promise((resolve) => setImmediate(resolve));
  }
}
