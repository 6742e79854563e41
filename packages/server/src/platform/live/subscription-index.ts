import { matchesFilter, type NormalFilter } from '@gdb/shared/live/filter';

/** What the index needs of a subscription. */
export interface Indexed {
  collection: string;
  filter: NormalFilter;
}

interface CollectionIndex<S> {
  /** Subscriptions with an empty filter. */
  all: Set<S>;
  /** By the first key of their filter, then by each of its values. */
  byKey: Map<string, Map<string, Set<S>>>;
}

/** Finds the subscriptions a document concerns without scanning them all. */
export class SubscriptionIndex<S extends Indexed> {
  readonly #collections = new Map<string, CollectionIndex<S>>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  add(sub: S): void {
    let index = this.#collections.get(sub.collection);
    if (!index) {
      index = { all: new Set(), byKey: new Map() };
      this.#collections.set(sub.collection, index);
    }
    const [key] = Object.keys(sub.filter);
    if (key === undefined) index.all.add(sub);
    else {
      let byValue = index.byKey.get(key);
      if (!byValue) {
        byValue = new Map();
        index.byKey.set(key, byValue);
      }
      for (const value of sub.filter[key] ?? []) {
        let set = byValue.get(value);
        if (!set) {
          set = new Set();
          byValue.set(value, set);
        }
        set.add(sub);
      }
    }
    this.#size += 1;
  }

  remove(sub: S): void {
    const index = this.#collections.get(sub.collection);
    if (!index) return;
    const [key] = Object.keys(sub.filter);
    let removed = false;
    if (key === undefined) removed = index.all.delete(sub);
    else {
      const byValue = index.byKey.get(key);
      for (const value of sub.filter[key] ?? []) {
        const set = byValue?.get(value);
        if (set?.delete(sub)) removed = true;
        if (set && set.size === 0) byValue?.delete(value);
      }
    }
    if (removed) this.#size -= 1;
  }

  /** The subscriptions of the collection whose filter the document matches. */
  matching(collection: string, doc: Readonly<Record<string, unknown>>): S[] {
    const index = this.#collections.get(collection);
    if (!index) return [];
    const out = new Set<S>(index.all);
    for (const [key, byValue] of index.byKey) {
      const value = doc[key];
      if (typeof value !== 'string') continue;
      for (const sub of byValue.get(value) ?? []) if (matchesFilter(sub.filter, doc)) out.add(sub);
    }
    return [...out];
  }
}
