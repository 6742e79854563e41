import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import { uploadsRepo } from './uploads.repo.ts';

/** Keys looked up in one query. */
const BATCH = 500;

/**
 * Deletes the stored files no upload references that were stored before `cutoff`, and answers how
 * many. Every stored file belongs to an upload (a received file, its checked rows, an import's
 * output) once its request or run ends; the ones left are from a process that died between storing
 * a file and recording it. The grace before `cutoff` covers requests and runs still under way.
 */
export async function sweepFiles(db: Kysely<Database>, files: FileStore, cutoff: Date): Promise<number> {
  const keys = await files.keysStoredBefore(cutoff);
  let deleted = 0;
  for (let at = 0; at < keys.length; at += BATCH) {
    const batch = keys.slice(at, at + BATCH);
    const referenced = await uploadsRepo(db).referencedKeys(batch);
    for (const key of batch) {
      if (referenced.has(key)) continue;
      await files.delete(key);
      deleted += 1;
    }
  }
  return deleted;
}
