import { isSystemSchemaName } from '@gdb/shared/schemas/system-schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import {
  type DeleteAnswer,
  type LockAnswer,
  type UpdateAnswer,
  type UpdateData,
  type UpdateReport,
  VERSION_MESSAGES,
  type VersionDoc,
  type VersionKind,
  type VersionRecord,
  versionLabel,
} from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { type Executor, inTransaction } from '../../platform/db/transaction.ts';
import { assertWritable } from '../../platform/db/versioned-row.ts';
import { badRequest, conflict, forbidden, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { type FolderedDocument, familiesOf } from './version-folders.ts';
import { adapterOf, dependencyGraph, docOf, updateEntries } from './version-graph.ts';
import { KINDS } from './version-kinds.ts';
import { applyUpdate, chosenMoves } from './version-update.ts';
import { type VersionedRow, type VersionsRepo, versionsRepo } from './versions.repo.ts';

export type { FolderedDocument } from './version-folders.ts';
export type { VersionedRow } from './versions.repo.ts';

/**
 * The badge and folder part of the write check (docs/product.md §2.5, §18.3): throws when the
 * caller may not change the document. The versions engine checks read-only and locked itself.
 */
export type BadgeWriteCheck = (auth: AuthContext, kind: VersionKind, row: VersionedRow) => Promise<void>;

/** Until documents carry folders and badges to check, a write is refused only for read-only and locked. */
const noBadgeCheckYet: BadgeWriteCheck = async () => {};

/** What a write does: `edit` and `delete` need a draft; `lock`, `version` (new, update) and `move` (to a folder) also act on locked versions. */
export type WriteAction = 'edit' | 'delete' | 'lock' | 'version' | 'move';

const plural = (docs: readonly VersionDoc[]) => docs.map((d) => `${d.name} ${versionLabel(d)}`).join(', ');

/** One version engine for schemas, components, SDK functions and pipelines (docs/product.md §18.1, DESIGN §7). */
export function versionsService(ctx: AppContext, options: { badgeWriteCheck?: BadgeWriteCheck } = {}) {
  const repo = versionsRepo(ctx.db.kysely);
  const badgeWriteCheck = options.badgeWriteCheck ?? noBadgeCheckYet;

  async function load(kind: VersionKind, id: string): Promise<VersionedRow> {
    const row = isId(id) ? await repo.byId(adapterOf(kind).table, id) : undefined;
    if (!row) throw notFound(VERSION_MESSAGES.notFound);
    return row;
  }

  /** Refuses a write to a read-only document, to a locked version where the action needs a draft, and what the badges refuse. */
  async function assertCanWrite(auth: AuthContext, kind: VersionKind, row: VersionedRow, action: WriteAction) {
    const needsDraft = action === 'edit' || action === 'delete';
    // The system data models, the forms' own, are read-only but to super-admins.
    if (kind === 'schema' && isSystemSchemaName(row.name) && !auth.roles.includes('super-admin')) {
      throw forbidden(`This ${adapterOf(kind).what} is read-only.`);
    }
    assertWritable(
      { read_only: row.read_only, v_locked: needsDraft && row.v_locked, version: row.version },
      adapterOf(kind).what,
    );
    await badgeWriteCheck(auth, kind, row);
  }

  /** The versions (of any kind, other than itself) that point at this one. */
  async function usedBy(kind: VersionKind, id: string): Promise<VersionDoc[]> {
    const users: VersionDoc[] = [];
    for (const adapter of Object.values(KINDS)) {
      const columns = adapter.refColumns[kind];
      if (!columns) continue;
      for (const row of await repo.mentioning(adapter.table, columns, id)) users.push(docOf(adapter.kind, row));
    }
    return users;
  }

  /** Copies a version as the next number of its family; a copy losing the race for its number tries again up to `tries` times, then is refused (409). */
  async function copy(r: VersionsRepo, kind: VersionKind, source: VersionedRow, userId: string | null, tries = 1) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const row = await r.copy(adapterOf(kind).table, source, { id: newId(), userId });
        if (!row) throw notFound(VERSION_MESSAGES.notFound);
        return row;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (attempt >= tries) {
          throw conflict(`A new version of ${adapterOf(kind).nameOf(source)} was made at the same time; try again.`);
        }
      }
    }
  }

  return {
    load,
    assertCanWrite,
    usedBy,

    /** Every document of a kind, one per family with its versions, for the explorer trees. */
    async documents(kind: VersionKind): Promise<FolderedDocument[]> {
      return familiesOf(kind, await repo.inFolders(adapterOf(kind).table));
    },

    /** Moves a document (every version of its family) into a folder; read-only or the badges refuse it. */
    async moveToFolder(kind: VersionKind, auth: AuthContext, id: string, folderId: string): Promise<VersionedRow> {
      const row = await load(kind, id);
      await assertCanWrite(auth, kind, row, 'move');
      await repo.moveFamily(adapterOf(kind).table, row.family_id, folderId);
      return row;
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
      for (const row of rows) {
        const users = (await usedBy(kind, row.id)).filter((u) => !ids.has(u._id));
        if (users.length > 0) throw conflict(`This ${adapterOf(kind).what} is used by ${plural(users)}.`);
      }
      await inTransaction(ctx.db.kysely, async (trx) => {
        await versionsRepo(trx).removeIds(table, [...ids]);
        await andThen(trx);
      });
      return ids.size;
    },

    /** The family's version graph, by version number. */
    async versions(kind: VersionKind, id: string): Promise<VersionRecord[]> {
      const row = await load(kind, id);
      return (await repo.family(adapterOf(kind).table, row.family_id)).map((v) => ({
        _id: v.id,
        version: v.version,
        vLocked: v.v_locked,
        vParents: v.v_parents,
        lastUpdateDate: new Date(v.updated_at).toISOString(),
        read_only: v.read_only,
        isMaster: adapterOf(kind).isMaster(v),
      }));
    },

    /** Locks a version; drafts it depends on refuse the lock unless `force` locks them too. */
    async lock(kind: VersionKind, auth: AuthContext, id: string, force = false): Promise<LockAnswer> {
      const row = await load(kind, id);
      await assertCanWrite(auth, kind, row, 'lock');
      const graph = await dependencyGraph(repo, kind, row);
      // Deepest first: a version is locked after what it depends on.
      const drafts = [...graph.nodes.values()].filter((n) => n !== graph.root && !n.row.v_locked).reverse();
      if (drafts.length > 0 && !force) {
        throw conflict(
          `It depends on drafts; lock them first or lock with force: ${plural(drafts.map((n) => docOf(n.kind, n.row)))}`,
        );
      }
      for (const n of drafts) await assertCanWrite(auth, n.kind, n.row, 'lock');
      const locking = [...drafts, ...(row.v_locked ? [] : [graph.root])];
      await inTransaction(ctx.db.kysely, async (trx) => {
        for (const n of locking) await versionsRepo(trx).lock(adapterOf(n.kind).table, [n.row.id]);
      });
      return { locked: locking.map((n) => ({ ...docOf(n.kind, n.row), vLocked: true })) };
    },

    /** A copy as the next number of the family, unlocked, its parent the source ("Unlock" is this). */
    async newVersion(kind: VersionKind, auth: AuthContext, id: string): Promise<VersionDoc> {
      const row = await load(kind, id);
      await assertCanWrite(auth, kind, row, 'version');
      // Outside a transaction a copy that lost the race for its number can take the next one.
      return docOf(kind, await copy(repo, kind, row, auth.userId, 3));
    },

    /** Deletes a draft nothing points at; answers which version to open next (next, else previous, else none). */
    async remove(kind: VersionKind, auth: AuthContext, id: string): Promise<DeleteAnswer> {
      const row = await load(kind, id);
      await assertCanWrite(auth, kind, row, 'delete');
      const users = await usedBy(kind, id);
      if (users.length > 0) throw conflict(`This ${adapterOf(kind).what} is used by ${plural(users)}.`);
      const table = adapterOf(kind).table;
      const family = await inTransaction(ctx.db.kysely, async (trx) => {
        const r = versionsRepo(trx);
        if (!(await r.removeDraft(table, id))) throw conflict(`Version ${row.version} was locked or deleted meanwhile.`);
        await r.reparentChildren(table, row);
        return r.family(table, row.family_id);
      });
      const next = family.find((v) => v.version > row.version) ?? family.filter((v) => v.version < row.version).at(-1);
      return { _id: id, version: row.version, next: next?.id ?? null };
    },

    /** The update report: for every dependency, whether a newer version exists and which to take. */
    async compute(kind: VersionKind, id: string): Promise<UpdateReport> {
      const row = await load(kind, id);
      const entries = await updateEntries(repo, await dependencyGraph(repo, kind, row));
      const of = (k: VersionKind) => entries.filter((e) => e.doc.kind === k);
      const needUpdate = entries.some((e) => e.needUpdate);
      return {
        _id: row.id,
        doc: docOf(kind, row),
        needUpdate,
        data: { schemas: of('schema'), components: of('component'), sdk: of('sdk'), pipelines: of('pipeline'), needUpdate },
        updateJobs: false,
        updateCountries: false,
        repeatJobs: [],
        scheduledJobs: [],
      };
    },

    /** New versions pointing at the chosen newer dependencies, up to the asked one; answers each new version. */
    async update(kind: VersionKind, auth: AuthContext, data: UpdateData): Promise<UpdateAnswer> {
      if (!data.id) throw badRequest(VERSION_MESSAGES.missingId);
      const row = await load(kind, data.id);
      const graph = await dependencyGraph(repo, kind, row);
      const moves = chosenMoves(await updateEntries(repo, graph), data);
      if (moves.size === 0) return { success: [] };
      return inTransaction(ctx.db.kysely, (trx) =>
        applyUpdate(graph, moves, {
          check: (n) => assertCanWrite(auth, n.kind, n.row, 'version'),
          copy: (n) => copy(versionsRepo(trx), n.kind, n.row, auth.userId),
          patch: (n, id, columns) => versionsRepo(trx).patch(adapterOf(n.kind).table, id, columns),
        }),
      );
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
  };
}

export type VersionsService = ReturnType<typeof versionsService>;
