/** A first-come, first-served lock: `acquire` resolves with the function that releases it. */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.#tail.then(() => {
      let done = false;
      return () => {
        if (done) return;
        done = true;
        release();
      };
    });
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}
