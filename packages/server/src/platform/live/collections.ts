import type { NormalFilter } from '@gdb/shared/live/filter';
import type { LiveCollection } from '@gdb/shared/live/live.schemas';
import type { z } from 'zod';
import type { AuthContext } from '../auth/access-control.ts';

/** A document of any collection, as sent to clients. */
export type LiveDoc = { _id: string } & Record<string, unknown>;

/**
 * One collection of the live channel, registered with the hub by the module that owns its table
 * (the table's notifications carry the collection's name): how its documents are read and
 * projected from rows, and who may read them.
 */
export interface CollectionDef {
  name: LiveCollection;
  /** Filter keys whose values are UUIDs. */
  uuidKeys: readonly string[];
  /** True when an empty filter is refused (logs). */
  requiresFilter: boolean;
  /** The newest `limit` documents matching the filter, oldest first. */
  read(filter: NormalFilter, limit: number): Promise<LiveDoc[]>;
  /** One document, read again when its notification did not carry the row. */
  byId(id: string): Promise<LiveDoc | undefined>;
  /** A row from a notification (to_jsonb text) as a document; undefined when it is not one. */
  fromRow(row: unknown): LiveDoc | undefined;
  /** The fields a notification's routing keys stand for (deletes and oversized rows). */
  fromKeys(id: string, keys: Readonly<Record<string, unknown>>): LiveDoc;
  /** The read rule: whether the caller may find or subscribe to what the filter names. */
  mayRead(caller: AuthContext, filter: NormalFilter): Promise<boolean>;
  /**
   * Which of these documents the caller may be sent, when that depends on each document (their
   * badges): the others are left out of what they find, of the initial documents and of the changes.
   */
  visible?(caller: AuthContext, docs: readonly LiveDoc[]): Promise<LiveDoc[]>;
}

/** A date of a row (a Date, or ISO text in a notification) as ISO text. */
/** A routing key's value when it is text, else null. */
export const textOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

/** A notification's row read with its schema; undefined when it does not fit. */
export function rowOf<T>(schema: z.ZodType<T>, row: unknown): T | undefined {
  const r = schema.safeParse(row);
  return r.success ? r.data : undefined;
}

/** The owners of the named rows (a pipeline, say), or undefined when one is missing or has none. */
export function ownersOf(ids: readonly string[], rows: readonly { id: string; owner: string | null }[]): string[] | undefined {
  const found = new Map(rows.map((r) => [r.id, r.owner]));
  const out = new Set<string>();
  for (const id of ids) {
    const owner = found.get(id);
    if (!owner) return undefined;
    out.add(owner);
  }
  return [...out];
}
