// Refusals and bulk answers name only the documents their caller may read: a document the badges
// close to them is counted, never named (docs/decisions.md, "Answers name only what the caller reads").
import { VERSION_KINDS, type VersionDoc, type VersionKind } from '@gdb/shared/versions/versions.schemas';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { forbidden } from '../../platform/http/errors.ts';
import { adapterOf } from './version-graph.ts';
import type { VersionedRow, VersionsRepo } from './versions.repo.ts';

/** The rows (of one kind) the caller may read (the engine's badge read filter). */
type ReadFilter = (auth: AuthContext, kind: VersionKind, rows: readonly VersionedRow[]) => Promise<VersionedRow[]>;

/** Said in place of the documents a caller may not read. */
const closedCount = (n: number) => `${n} document${n === 1 ? '' : 's'} you cannot read`;

/** The name a bulk answer gives a pipeline its caller may not read. */
export const CLOSED_PIPELINE = 'A pipeline you cannot read';

/** The refusal of a bulk entry whose pipeline the caller may not read. */
export const cannotRead = (kind: VersionKind) => forbidden(`You are not allowed to read this ${adapterOf(kind).what}.`);

/** Which of these documents (of any kinds) the caller may read, by id. */
export function readableIds(repo: VersionsRepo, readable: ReadFilter) {
  return async (auth: AuthContext, docs: readonly Pick<VersionDoc, '_id' | 'kind'>[]): Promise<Set<string>> => {
    const open = new Set<string>();
    for (const kind of VERSION_KINDS) {
      const ids = docs.filter((d) => d.kind === kind).map((d) => d._id);
      if (ids.length === 0) continue;
      for (const row of await readable(auth, kind, await repo.byIds(adapterOf(kind).table, ids))) open.add(row.id);
    }
    return open;
  };
}

/** Documents as a message names them for a caller: those it may read by name and label, the others counted. */
export function namesFor(
  open: (auth: AuthContext, docs: readonly VersionDoc[]) => Promise<Set<string>>,
  plural: (docs: readonly VersionDoc[]) => string,
) {
  return async (auth: AuthContext, docs: readonly VersionDoc[]): Promise<string> => {
    const readable = await open(auth, docs);
    const named = docs.filter((d) => readable.has(d._id));
    const closed = docs.length - named.length;
    return [...(named.length > 0 ? [plural(named)] : []), ...(closed > 0 ? [closedCount(closed)] : [])].join(', ');
  };
}
