import { type DeleteAnswer, VERSION_MESSAGES, type VersionKind } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { type Executor, inTransaction } from '../../platform/db/transaction.ts';
import { conflict, notFound } from '../../platform/http/errors.ts';
import type { VersionAccess } from './version-access.ts';
import { adapterOf } from './version-graph.ts';
import { type VersionedRow, versionsRepo } from './versions.repo.ts';

type UsedBy = Awaited<ReturnType<VersionAccess['usedBy']>>;

/**
 * The draft versions to delete, each checked first: read-only, locked or refused by the badges
 * (403); pointed at by a version not among them (409).
 */
async function removableRows(
  { load, assertCanWrite, usedBy, namesFor }: VersionAccess,
  kind: VersionKind,
  auth: AuthContext,
  ids: readonly string[],
): Promise<VersionedRow[]> {
  const going = new Set(ids);
  const rows: VersionedRow[] = [];
  for (const id of ids) {
    const row = await load(kind, id);
    await assertCanWrite(auth, kind, row, 'delete');
    const users = (await usedBy(kind, id)).filter((u) => !going.has(u._id));
    if (users.length > 0) throw conflict(`This ${adapterOf(kind).what} is used by ${await namesFor(auth, users)}.`);
    rows.push(row);
  }
  return rows;
}

/**
 * Deletes checked drafts in `trx`, the versions made from each pointed at its parents; one locked
 * or deleted meanwhile answers 409 (`meanwhile` says which), and so does one that a version saved
 * meanwhile points at: either undoes the transaction.
 */
async function deleteRows(
  trx: Executor,
  { kind, usedBy, names }: { kind: VersionKind; usedBy: VersionAccess['usedBy']; names: (users: UsedBy) => Promise<string> },
  rows: readonly VersionedRow[],
  meanwhile: (row: VersionedRow) => string,
) {
  const { table, what } = adapterOf(kind);
  const r = versionsRepo(trx);
  const going = new Set(rows.map((row) => row.id));
  for (const row of rows) {
    if (!(await r.removeDraft(table, row.id))) throw conflict(meanwhile(row));
    // The row is held by this delete now: a save that named it and committed first is seen here.
    const users = (await usedBy(kind, row.id, r)).filter((u) => !going.has(u._id));
    if (users.length > 0) throw conflict(`This ${what} is used by ${await names(users)}.`);
    await r.reparentChildren(table, row);
  }
}

/** Deletes one draft nothing points at; answers which version to open next (next, else previous, else none). */
export function draftRemoval(access: VersionAccess) {
  return async (kind: VersionKind, auth: AuthContext, id: string): Promise<DeleteAnswer> => {
    const [row] = await removableRows(access, kind, auth, [id]);
    if (!row) throw notFound(VERSION_MESSAGES.notFound);
    const family = await inTransaction(access.db, async (trx) => {
      await deleteRows(
        trx,
        { kind, usedBy: access.usedBy, names: (users) => access.namesFor(auth, users) },
        [row],
        (r) => `Version ${r.version} was locked or deleted meanwhile.`,
      );
      return versionsRepo(trx).family(adapterOf(kind).table, row.family_id);
    });
    const next = family.find((v) => v.version > row.version) ?? family.filter((v) => v.version < row.version).at(-1);
    return { _id: id, version: row.version, next: next?.id ?? null };
  };
}

/**
 * Deletes draft versions (of one kind) together, in one transaction that first runs `before`:
 * each is checked beforehand, and one locked or deleted meanwhile (409) undoes the whole delete,
 * so none goes without the others.
 */
export function draftsRemoval(access: VersionAccess) {
  return async (kind: VersionKind, auth: AuthContext, ids: readonly string[], before: (trx: Executor) => Promise<void>) => {
    const { nameOf } = adapterOf(kind);
    const rows = await removableRows(access, kind, auth, ids);
    await inTransaction(access.db, async (trx) => {
      await before(trx);
      await deleteRows(
        trx,
        { kind, usedBy: access.usedBy, names: (users) => access.namesFor(auth, users) },
        rows,
        (row) => `Version ${row.version} of ${nameOf(row)} was locked or deleted meanwhile.`,
      );
    });
  };
}
