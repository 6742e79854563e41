import { schemaRuleIssue } from '@gdb/shared/schemas/schema-check';
import type {
  LockAnswer,
  UpdateAnswer,
  UpdateData,
  UpdateReport,
  VersionDoc,
  VersionKind,
} from '@gdb/shared/versions/versions.schemas';
import { VERSION_MESSAGES } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { type Executor, inTransaction } from '../../platform/db/transaction.ts';
import { badRequest, conflict } from '../../platform/http/errors.ts';
import type { VersionAccess } from './version-access.ts';
import {
  adapterOf,
  type DependencyGraph,
  dependencyForest,
  dependencyGraph,
  docOf,
  type Node,
  postOrder,
  updateEntries,
} from './version-graph.ts';
import { draftRemoval } from './version-removal.ts';
import { applyUpdate, chosenMoves } from './version-update.ts';
import { type VersionedRow, versionsRepo } from './versions.repo.ts';

/** Locking a version, its next version and deleting a draft. */
export function familyWrites(access: VersionAccess) {
  const { db, repo, load, assertCanWrite, copy, namesFor, openIds } = access;

  /**
   * Locks versions of a kind together (a master with its country pipelines): the drafts they
   * depend on, other than the versions asked, refuse the lock unless `force` locks them too.
   * Answers what was locked, each after what it depends on.
   */
  async function lockVersions(kind: VersionKind, auth: AuthContext, rows: readonly VersionedRow[], force: boolean) {
    for (const row of rows) await assertCanWrite(auth, kind, row, 'lock');
    const forest = await dependencyForest(repo, kind, rows);
    const asked = new Set(rows.map((r) => r.id));
    const order = postOrder(forest.nodes, forest.roots);
    const drafts = order.filter((n) => !asked.has(n.row.id) && !n.row.v_locked);
    if (drafts.length > 0 && !force) {
      const names = await namesFor(
        auth,
        drafts.map((n) => docOf(n.kind, n.row)),
      );
      throw conflict(`It depends on drafts; lock them first or lock with force: ${names}`);
    }
    for (const n of drafts) await assertCanWrite(auth, n.kind, n.row, 'lock');
    const locking = order.filter((n) => !n.row.v_locked);
    await inTransaction(db, async (trx) => {
      for (const n of locking) await versionsRepo(trx).lock(adapterOf(n.kind).table, [n.row.id]);
    });
    const locked = locking.map((n) => ({ ...docOf(n.kind, n.row), vLocked: true }));
    const open = await openIds(auth, locked);
    return { locked: locked.filter((d) => open.has(d._id)) };
  }

  return {
    lockVersions,

    /** Locks a version; drafts it depends on refuse the lock unless `force` locks them too. */
    async lock(kind: VersionKind, auth: AuthContext, id: string, force = false): Promise<LockAnswer> {
      return lockVersions(kind, auth, [await load(kind, id)], force);
    },

    /** A copy as the next number of the family, unlocked, its parent the source ("Unlock" is this). */
    async newVersion(kind: VersionKind, auth: AuthContext, id: string): Promise<VersionDoc> {
      const row = await load(kind, id);
      await assertCanWrite(auth, kind, row, 'version');
      // Outside a transaction a copy that lost the race for its number can take the next one.
      return docOf(kind, await copy(repo, kind, row, auth.userId, 3));
    },

    /** Deletes a draft nothing points at; answers which version to open next (next, else previous, else none). */
    remove: draftRemoval(access),
  };
}

/**
 * Refuses (400, the rule's message) the JSON schema an update would write into a data model's new
 * version when it breaks a node rule of the editor: a row saved before the rules is not carried
 * into new versions. (A new version made by hand is a draft that is saved, and checked, to fix it.)
 */
function assertKeepsRules(node: Node, columns: Record<string, unknown>): void {
  if (node.kind !== 'schema' || typeof columns.json_schema !== 'string') return;
  const issue = schemaRuleIssue(JSON.parse(columns.json_schema) as Record<string, unknown>);
  if (issue) throw badRequest(issue.message, [issue]);
}

/** The update report of a version's dependencies, and the new versions that take the newer ones. */
export function dependencyUpdates({ db, repo, load, loadReadable, readable, assertCanWrite, copy }: VersionAccess) {
  /** The entries of documents the viewer may read: the others are left out of the report. */
  async function readableEntries<E extends { doc: { _id: string; kind: VersionKind } }>(viewer: AuthContext, entries: E[]) {
    const kept = new Set<string>();
    for (const kind of new Set(entries.map((e) => e.doc.kind))) {
      const ids = entries.filter((e) => e.doc.kind === kind).map((e) => e.doc._id);
      for (const row of await readable(viewer, kind, await repo.byIds(adapterOf(kind).table, ids))) kept.add(row.id);
    }
    return entries.filter((e) => kept.has(e.doc._id));
  }

  /**
   * The write check of every version an update would copy, found by walking it without writing:
   * it runs before the transaction, as the badge check reads the database itself.
   */
  async function checkUpdate(auth: AuthContext, graph: DependencyGraph, chosen: ReadonlyMap<string, string>) {
    const planned: Node[] = [];
    await applyUpdate(graph, chosen, {
      check: async (n) => {
        planned.push(n);
      },
      copy: async (n) => ({ ...n.row, id: `planned:${n.row.id}` }),
      patch: async (n, _id, columns) => assertKeepsRules(n, columns),
    });
    for (const n of planned) await assertCanWrite(auth, n.kind, n.row, 'version');
  }

  /** Makes the new versions of an update (checked first) in a transaction the caller opened; answers them and every move made. */
  const applyIn = (trx: Executor, auth: AuthContext, graph: DependencyGraph, chosen: ReadonlyMap<string, string>) =>
    applyUpdate(graph, chosen, {
      check: async () => {},
      copy: (n) => copy(versionsRepo(trx), n.kind, n.row, auth.userId),
      patch: (n, id, columns) => {
        assertKeepsRules(n, columns);
        return versionsRepo(trx).patch(adapterOf(n.kind).table, id, columns);
      },
    });

  return {
    /** The update report: for every dependency, whether a newer version exists and which to take. */
    async compute(kind: VersionKind, id: string, viewer?: AuthContext): Promise<UpdateReport> {
      const row = await loadReadable(viewer, kind, id);
      const all = await updateEntries(repo, await dependencyGraph(repo, kind, row));
      const entries = viewer ? await readableEntries(viewer, all) : all;
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
      await checkUpdate(auth, graph, moves);
      const { success } = await inTransaction(db, (trx) => applyIn(trx, auth, graph, moves));
      return { success };
    },

    checkUpdate,
    applyIn,
    loadReadable,
    readableEntries,
  };
}
