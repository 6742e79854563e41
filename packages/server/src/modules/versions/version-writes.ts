import type {
  DeleteAnswer,
  LockAnswer,
  UpdateAnswer,
  UpdateData,
  UpdateReport,
  VersionDoc,
  VersionKind,
} from '@gdb/shared/versions/versions.schemas';
import { VERSION_MESSAGES } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { inTransaction } from '../../platform/db/transaction.ts';
import { badRequest, conflict } from '../../platform/http/errors.ts';
import { plural, type VersionAccess } from './version-access.ts';
import { adapterOf, dependencyGraph, docOf, updateEntries } from './version-graph.ts';
import { applyUpdate, chosenMoves } from './version-update.ts';
import { versionsRepo } from './versions.repo.ts';

/** Locking a version, its next version and deleting a draft. */
export function familyWrites({ db, repo, load, assertCanWrite, usedBy, copy }: VersionAccess) {
  return {
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
      await inTransaction(db, async (trx) => {
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
      const family = await inTransaction(db, async (trx) => {
        const r = versionsRepo(trx);
        if (!(await r.removeDraft(table, id))) throw conflict(`Version ${row.version} was locked or deleted meanwhile.`);
        await r.reparentChildren(table, row);
        return r.family(table, row.family_id);
      });
      const next = family.find((v) => v.version > row.version) ?? family.filter((v) => v.version < row.version).at(-1);
      return { _id: id, version: row.version, next: next?.id ?? null };
    },
  };
}

/** The update report of a version's dependencies, and the new versions that take the newer ones. */
export function dependencyUpdates({ db, repo, load, assertCanWrite, copy }: VersionAccess) {
  return {
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
      return inTransaction(db, (trx) =>
        applyUpdate(graph, moves, {
          check: (n) => assertCanWrite(auth, n.kind, n.row, 'version'),
          copy: (n) => copy(versionsRepo(trx), n.kind, n.row, auth.userId),
          patch: (n, id, columns) => versionsRepo(trx).patch(adapterOf(n.kind).table, id, columns),
        }),
      );
    },
  };
}
