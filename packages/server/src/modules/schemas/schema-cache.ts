import type { SchemaDocument } from '@gdb/shared/schemas/schemas.schemas';

/**
 * Locked data model versions by id. A locked version never changes and is never deleted, so every
 * server may keep it; drafts are always read from the database. Clearing empties this server's copy.
 */
export function lockedSchemaCache(max = 2000) {
  const docs = new Map<string, SchemaDocument>();
  return {
    get: (id: string) => docs.get(id),
    /** Keeps a locked version (the oldest kept is dropped beyond `max`); drafts are not kept. */
    keep(doc: SchemaDocument): SchemaDocument {
      if (!doc.vLocked) return doc;
      docs.delete(doc._id);
      docs.set(doc._id, doc);
      if (docs.size > max) docs.delete(docs.keys().next().value ?? '');
      return doc;
    },
    /** Empties the cache; answers how many versions it held. */
    clear(): number {
      const n = docs.size;
      docs.clear();
      return n;
    },
  };
}
