import type { VersionKind, VersionRecord } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { type Executor, inTransaction } from '../../platform/db/transaction.ts';
import { conflict } from '../../platform/http/errors.ts';
import { type BadgeReadFilter, type BadgeWriteCheck, versionAccess } from './version-access.ts';
import { type FolderedDocument, familiesOf } from './version-folders.ts';
import { adapterOf, docOf } from './version-graph.ts';
import { draftsRemoval } from './version-removal.ts';
import { dependencyUpdates, familyWrites } from './version-writes.ts';
import { type VersionedRow, type VersionsRepo, versionsRepo } from './versions.repo.ts';

export type { BadgeReadFilter, BadgeWriteCheck } from './version-access.ts';
export type { FolderedDocument } from './version-folders.ts';
export type { VersionedRow } from './versions.repo.ts';

/** One version engine for schemas, components, SDK functions and pipelines (docs/product.md §18.1). */
export function versionsService(
  ctx: AppContext,
  options: { badgeWriteCheck: BadgeWriteCheck; badgeReadFilter: BadgeReadFilter },
) {
  const access = versionAccess(ctx, options.badgeWriteCheck, options.badgeReadFilter);
  const { repo, load, assertCanWrite, usedBy, namesFor, openIds } = access;

  /** The version graph of a row's family, by version number. */
  async function graphOf(kind: VersionKind, row: VersionedRow): Promise<VersionRecord[]> {
    return (await repo.family(adapterOf(kind).table, row.family_id)).map((v) => ({
      _id: v.id,
      version: v.version,
      vLocked: v.v_locked,
      vParents: v.v_parents,
      lastUpdateDate: new Date(v.updated_at).toISOString(),
      read_only: v.read_only,
      isMaster: adapterOf(kind).isMaster(v),
    }));
  }

  return {
    load,
    assertCanWrite,
    usedBy,
    namesFor,
    openIds,
    /** A version as the answers name it: its kind, family, name, number and lock. */
    describe: docOf,

    /** Every document of a kind, one per family with its versions, for the explorer trees. */
    async documents(kind: VersionKind): Promise<FolderedDocument[]> {
      const { table, nameColumn } = adapterOf(kind);
      return familiesOf(kind, await repo.treeRows(table, nameColumn));
    },

    /** A stamp of a kind's documents that changes whenever any version of any of them is written, moved or deleted. */
    documentsStamp: (kind: VersionKind): Promise<string> => repo.stamp(adapterOf(kind).table),

    /** Moves a document (every version of its family) into a folder; read-only or the badges refuse it. */
    async moveToFolder(kind: VersionKind, auth: AuthContext, id: string, folderId: string): Promise<VersionedRow> {
      const row = await load(kind, id);
      await assertCanWrite(auth, kind, row, 'move');
      await repo.moveFamily(adapterOf(kind).table, row.family_id, folderId);
      return row;
    },

    /** Sets the badges of a document, every version of its family; read-only or the badges refuse it. */
    async setBadges(
      kind: VersionKind,
      auth: AuthContext,
      id: string,
      badges: { tags: { read: string[][]; write: string[][] }; metadataTags: readonly string[] },
    ): Promise<number> {
      const row = await load(kind, id);
      await assertCanWrite(auth, kind, row, 'badges');
      return repo.setFamilyTags(adapterOf(kind).table, row.family_id, badges.tags, badges.metadataTags);
    },

    /**
     * Deletes the documents of these folders, every version, then runs `andThen` in the same
     * transaction. Refused when a version is locked or read-only, the badges refuse it, or a
     * version of another document points at one (409). Answers how many versions went.
     */
    async removeInFolders(
      kind: VersionKind,
      auth: AuthContext,
      folderIds: readonly string[],
      andThen: (trx: Executor) => Promise<void>,
    ): Promise<number> {
      const table = adapterOf(kind).table;
      const inFolders = new Set(folderIds);
      const docs = familiesOf(kind, await repo.inFolders(table)).filter((d) => d.folder && inFolders.has(d.folder));
      const ids = new Set(docs.flatMap((d) => d.versions.map((v) => v._id)));
      const rows = await repo.byIds(table, [...ids]);
      for (const row of rows) await assertCanWrite(auth, kind, row, 'delete');
      const assertUnused = async (r: VersionsRepo) => {
        for (const row of rows) {
          const users = (await usedBy(kind, row.id, r)).filter((u) => !ids.has(u._id));
          if (users.length > 0) throw conflict(`This ${adapterOf(kind).what} is used by ${await namesFor(auth, users)}.`);
        }
      };
      await assertUnused(repo);
      await inTransaction(ctx.db.kysely, async (trx) => {
        await versionsRepo(trx).removeIds(table, [...ids]);
        // Held by this delete now: a version saved meanwhile naming one of them is seen, and undoes it.
        await assertUnused(versionsRepo(trx));
        await andThen(trx);
      });
      return ids.size;
    },

    /** The family's version graph, by version number, of a document the viewer may read. */
    async versions(kind: VersionKind, id: string, viewer: AuthContext): Promise<VersionRecord[]> {
      return graphOf(kind, await access.loadReadable(viewer, kind, id));
    },

    /** The family's version graph, whoever asks (the write check's locked-only rule reads it). */
    async family(kind: VersionKind, id: string): Promise<VersionRecord[]> {
      return graphOf(kind, await load(kind, id));
    },

    /**
     * Saves a draft's own columns (write form) when `sysVersion` is still the stored one: a save
     * made on an older copy is refused with 409, so concurrent saves never overwrite each other.
     */
    async saveDraft(kind: VersionKind, auth: AuthContext, id: string, sysVersion: number, columns: Record<string, unknown>) {
      const row = await load(kind, id);
      await assertCanWrite(auth, kind, row, 'edit');
      const stale = () => conflict(`This ${adapterOf(kind).what} was saved by someone else since you opened it; reload it.`);
      if (row.sys_version !== sysVersion) throw stale();
      const saved = await repo.saveDraft(adapterOf(kind).table, id, sysVersion, { ...columns, updated_by: auth.userId });
      if (!saved) throw stale();
      return saved;
    },

    ...familyWrites(access),
    removeDrafts: draftsRemoval(access),
    ...dependencyUpdates(access),
  };
}

export type VersionsService = ReturnType<typeof versionsService>;
