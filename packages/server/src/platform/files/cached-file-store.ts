import type { FileStore } from './file-store.ts';

/**
 * A store keeping the files it stored or read last in memory, up to `maxBytes` in all (a file above
 * a quarter of that is not kept). A run reads the rows its upload's check stored moments before,
 * and reading 10 MB back from PostgreSQL's `bytea` takes longer than the run's own parse of them.
 * A key names bytes that never change, so a copy is never stale while its file exists; `delete`
 * forgets it first. Copies go in and out, so no caller can change what another one reads.
 */
export function cachedFileStore(inner: FileStore, maxBytes: number): FileStore {
  const kept = new Map<string, Buffer>();
  let size = 0;
  const forget = (key: string) => {
    const bytes = kept.get(key);
    if (!bytes) return;
    kept.delete(key);
    size -= bytes.length;
  };
  const keep = (key: string, bytes: Uint8Array) => {
    if (bytes.length > maxBytes / 4) return;
    forget(key);
    kept.set(key, Buffer.from(bytes));
    size += bytes.length;
    // A Map lists its keys in the order they were set: the first is the least recently used.
    for (const oldest of kept.keys()) {
      if (size <= maxBytes) break;
      forget(oldest);
    }
  };
  return {
    kind: inner.kind,
    async put(bytes, within) {
      const key = await inner.put(bytes, within);
      keep(key, bytes);
      return key;
    },
    async putAll(files, within) {
      const keys = await inner.putAll(files, within);
      keys.forEach((key, i) => {
        const bytes = files[i];
        if (bytes) keep(key, bytes);
      });
      return keys;
    },
    // A file written piece by piece or from a stream is not kept: such files are the large ones.
    writer: () => inner.writer(),
    putStream: (chunks) => inner.putStream(chunks),
    async get(key) {
      const hit = kept.get(key);
      if (hit) {
        kept.delete(key);
        kept.set(key, hit);
        return Buffer.from(hit);
      }
      const bytes = await inner.get(key);
      keep(key, bytes);
      return bytes;
    },
    async delete(key) {
      forget(key);
      await inner.delete(key);
    },
    keysStoredBefore: (cutoff) => inner.keysStoredBefore(cutoff),
  };
}
