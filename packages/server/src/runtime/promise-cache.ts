/**
 * A small least-recently-used map of answers still coming or come: an answer that rejects, or
 * that `keep` refuses, is forgotten, so the next ask makes it again.
 */
export class PromiseCache<T> {
  private readonly map = new Map<string, Promise<T>>();

  constructor(
    private readonly size: number,
    private readonly keep: (value: T) => boolean = () => true,
  ) {}

  get(key: string): Promise<T> | undefined {
    const hit = this.map.get(key);
    if (hit) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  /** Keeps `value` under `key` (the least recently used one leaving past the size) and answers it. */
  set(key: string, value: Promise<T>): Promise<T> {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.size) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
    const forget = () => {
      if (this.map.get(key) === value) this.map.delete(key);
    };
    value.then((v) => {
      if (!this.keep(v)) forget();
    }, forget);
    return value;
  }
}
