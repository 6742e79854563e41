import { isSystemSchemaName } from '@gdb/shared/schemas/system-schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import { VERSION_MESSAGES, type VersionDoc, type VersionKind, versionLabel } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import type { AppContext } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { assertWritable } from '../../platform/db/versioned-row.ts';
import { conflict, forbidden, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { namesFor, readableIds } from './closed-names.ts';
import { adapterOf, docOf } from './version-graph.ts';
import { KINDS } from './version-kinds.ts';
import { type VersionedRow, type VersionsRepo, versionsRepo } from './versions.repo.ts';

/**
 * The badge and folder part of the write check (docs/product.md §2.5, §18.3): throws when the
 * caller may not change the document. The versions engine checks read-only and locked itself.
 */
export type BadgeWriteCheck = (auth: AuthContext, kind: VersionKind, row: VersionedRow) => Promise<void>;

/** The read part of the badge check: the rows (of one kind) the caller may read, in their order. */
export type BadgeReadFilter = (auth: AuthContext, kind: VersionKind, rows: readonly VersionedRow[]) => Promise<VersionedRow[]>;

const readAll: BadgeReadFilter = async (_auth, _kind, rows) => [...rows];

/**
 * What a write does: `edit` and `delete` need a draft; `lock`, `version` (new, update), `move` (to a
 * folder) and `badges` (setting its badges) also act on locked versions.
 */
type WriteAction = 'edit' | 'delete' | 'lock' | 'version' | 'move' | 'badges';

/** Documents named with their version labels, for messages. */
const plural = (docs: readonly VersionDoc[]) => docs.map((d) => `${d.name} ${versionLabel(d)}`).join(', ');

/** What every write of the version engine goes through: loading a version, the write check, who points at it, copying it. */
export function versionAccess(ctx: AppContext, badgeWriteCheck: BadgeWriteCheck, badgeReadFilter: BadgeReadFilter = readAll) {
  const repo = versionsRepo(ctx.db.kysely);

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

  /** Loads a version the caller may read: 403 when the badges (or a folder above) refuse it. */
  async function loadReadable(auth: AuthContext | undefined, kind: VersionKind, id: string): Promise<VersionedRow> {
    const row = await load(kind, id);
    if (auth && (await badgeReadFilter(auth, kind, [row])).length === 0) {
      throw forbidden(`You are not allowed to read this ${adapterOf(kind).what}.`);
    }
    return row;
  }

  const openIds = readableIds(repo, badgeReadFilter);
  return {
    db: ctx.db.kysely,
    repo,
    load,
    loadReadable,
    readable: badgeReadFilter,
    /** Which of these documents the caller may read, by id. */
    openIds,
    /** Documents as a message names them for a caller: those it may not read counted, not named. */
    namesFor: namesFor(openIds, plural),
    assertCanWrite,
    usedBy,
    copy,
  };
}

export type VersionAccess = ReturnType<typeof versionAccess>;
