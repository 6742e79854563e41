import path from 'node:path';
import type { Db } from '../db/index.ts';
import { cachedFileStore } from './cached-file-store.ts';
import { databaseFileStore } from './database-file-store.ts';
import type { FileStore } from './file-store.ts';
import { localFileStore } from './local-file-store.ts';

/**
 * The store the configuration names; by default local for the embedded database, the database
 * otherwise, which keeps up to `cacheBytes` of recent files in memory (see `cachedFileStore`).
 */
export function openFileStore(kind: 'local' | 'database' | undefined, db: Db, dataDir: string, cacheBytes = 0): FileStore {
  const chosen = kind ?? (db.engine === 'pglite' ? 'local' : 'database');
  if (chosen === 'local') return localFileStore(path.join(dataDir, 'files'));
  const store = databaseFileStore(db);
  return cacheBytes > 0 ? cachedFileStore(store, cacheBytes) : store;
}
