import { type FolderKind, folderKindSchema } from '@gdb/shared/folders/folders.schemas';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/index.ts';
import { ReadCache } from '../../platform/db/read-cache.ts';
import { type ChangeFeed, createChangeFeed, noteAbout } from '../../platform/live/change-feed.ts';
import type { FolderRow } from './folders.repo.ts';

/**
 * Each kind's folders with their badges, as the document access check walks them on nearly every
 * read of a document: kept in memory (`ttlMs`, 0 for none) and forgotten when this instance
 * changes a folder (`changed`) or the database announces a change by any instance
 * (`{t: 'folders', id: kind}`, migration 20261126T1300; `follow`).
 */
export function folderChains(ttlMs: number, read: (kind: FolderKind) => Promise<readonly FolderRow[]>) {
  const cache = new ReadCache<FolderKind, readonly FolderRow[]>(ttlMs);

  /** A folders announcement forgets its kind (all kinds when it names none). */
  function onPayload(payload: string): void {
    const note = noteAbout(payload, ['folders']);
    if (!note) return;
    const kind = folderKindSchema.safeParse(note.id);
    if (kind.success) cache.forget(kind.data);
    else cache.clear();
  }

  return {
    of: (kind: FolderKind) => cache.get(kind, () => read(kind)),
    /** This instance changed folders: its next access checks read them again. */
    changed: () => cache.clear(),
    /** Whether folders are kept at all, so whether announcements need hearing. */
    caching: ttlMs > 0,
    /** Hears the changes of every instance; while notifications may have been missed, forgets everything. */
    follow(db: Db, log: FastifyBaseLogger): ChangeFeed {
      return createChangeFeed(db, { onPayload, onResync: () => cache.clear() }, log);
    },
  };
}
