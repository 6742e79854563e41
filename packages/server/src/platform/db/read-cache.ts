/**
 * Reads of rows that rarely change, kept in memory per key until they are said to have changed
 * (`forget`, `clear`) or for `ttlMs` at most, which bounds how long a change announced to no one
 * is missed. Callers asking while a read is under way share it. A read begun before a `forget` may
 * still answer those who asked before it, never one who asks after.
 */
export class ReadCache<K, V> {
  readonly #ttlMs: number;
  readonly #entries = new Map<K, { value: Promise<V>; until: number }>();

  constructor(ttlMs: number) {
    this.#ttlMs = ttlMs;
  }

  /** The kept value of `key` while it is fresh, else what `load` answers (kept unless it fails). */
  get(key: K, load: () => Promise<V>, now = Date.now()): Promise<V> {
    const kept = this.#entries.get(key);
    if (kept && kept.until > now) return kept.value;
    if (this.#ttlMs <= 0) return load();
    const value = load();
    const entry = { value, until: now + this.#ttlMs };
    this.#entries.set(key, entry);
    value.catch(() => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    });
    return value;
  }

  forget(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
