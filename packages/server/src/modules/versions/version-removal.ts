import type { VersionKind } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { type Executor, inTransaction } from '../../platform/db/transaction.ts';
import { conflict } from '../../platform/http/errors.ts';
import { plural, type VersionAccess } from './version-access.ts';
import { adapterOf } from './version-graph.ts';
import { type VersionedRow, versionsRepo } from './versions.repo.ts';

/**
 * Deletes draft versions (of one kind) together, in one transaction that first runs `before`:
 * each is checked beforehand (read-only, locked or refused by the badges: 403; pointed at by a
 * version not among them: 409), and one locked or deleted meanwhile (409) undoes the whole
 * delete, so none goes without the others.
 */
export function draftsRemoval({ db, load, assertCanWrite, usedBy }: VersionAccess) {
  return async (kind: VersionKind, auth: AuthContext, ids: readonly string[], before: (trx: Executor) => Promise<void>) => {
    const { table, what, nameOf } = adapterOf(kind);
    const going = new Set(ids);
    const rows: VersionedRow[] = [];
    for (const id of ids) {
      const row = await load(kind, id);
      await assertCanWrite(auth, kind, row, 'delete');
      const users = (await usedBy(kind, id)).filter((u) => !going.has(u._id));
      if (users.length > 0) throw conflict(`This ${what} is used by ${plural(users)}.`);
      rows.push(row);
    }
    await inTransaction(db, async (trx) => {
      await before(trx);
      const r = versionsRepo(trx);
      for (const row of rows) {
        if (!(await r.removeDraft(table, row.id))) {
          throw conflict(`Version ${row.version} of ${nameOf(row)} was locked or deleted meanwhile.`);
        }
        await r.reparentChildren(table, row);
      }
    });
  };
}
