import { hasAnyRole } from '@gdb/shared/auth/roles';
import { isEmptyFilter, type NormalFilter } from '@gdb/shared/live/filter';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { isUuid } from '../../platform/ids.ts';
import type { DocumentAccess } from '../access/access.service.ts';

/** Who asks: the signed-in user and their roles. */
type PipelineReader = AuthContext;

/** The pipelines a live filter reaches; undefined when a document it names does not exist or has none. */
export type FilterPipelines = (filter: NormalFilter) => Promise<readonly string[] | undefined>;

/** What the rule reads: the families of pipelines, the families assigned to a user and active, and which pipelines the badges let the caller read. */
interface AccessReads {
  familiesOfIds(ids: readonly string[]): Promise<{ id: string; family_id: string }[]>;
  assignedFamilies(userId: string): Promise<string[]>;
  readableIds(caller: PipelineReader, ids: readonly string[]): Promise<Set<string>>;
}

/** True when the caller, a user, has the family of each of these pipelines assigned and active. */
async function assignedEach(reads: AccessReads, caller: PipelineReader, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0) return true;
  if (!hasAnyRole(caller.roles, ['user']) || !ids.every(isUuid)) return false;
  const family = new Map((await reads.familiesOfIds(ids)).map((r) => [r.id, r.family_id]));
  const assigned = new Set(await reads.assignedFamilies(caller.userId));
  return ids.every((id) => assigned.has(family.get(id) ?? ''));
}

/**
 * The read rule of live documents that belong to pipelines (uploads, logs, imports), allowed where
 * the equivalent read is: managers, admins and super-admins may use an empty filter (what their
 * badges do not open is left out of what they are sent); documents a filter names must belong to
 * pipelines the badges let the caller read, and for a user, assigned to them and active.
 */
export function pipelineReadRule(reads: AccessReads, pipelinesOf: FilterPipelines) {
  return async (caller: PipelineReader, filter: NormalFilter): Promise<boolean> => {
    if (caller.roles.includes('super-admin')) return true;
    const wide = hasAnyRole(caller.roles, ['admin', 'manager']);
    if (isEmptyFilter(filter)) return wide;
    const pipelines = await pipelinesOf(filter);
    // A document named that does not exist (yet) leaks nothing: what comes later is checked as it is sent.
    if (pipelines === undefined) return wide;
    const readable = await reads.readableIds(caller, pipelines);
    if (!pipelines.every((id) => readable.has(id))) return false;
    return wide || assignedEach(reads, caller, pipelines);
  };
}

type BadgesOfIds = (
  ids: readonly string[],
) => Promise<{ id: string; folder_id: string | null; tags: { read: string[][]; write: string[][] } | null }[]>;

/** Which pipeline versions the caller's badges, and those of the folders above them, open. */
export function pipelineBadges(badgesOfIds: BadgesOfIds, access: DocumentAccess) {
  const readableIds = async (caller: AuthContext, ids: readonly string[]): Promise<Set<string>> => {
    const rows = await badgesOfIds([...new Set(ids)].filter(isUuid));
    const open = await (await access(caller)).filter('read', 'pipeline', rows, (r) => ({ folder: r.folder_id, tags: r.tags }));
    return new Set(open.map((r) => r.id));
  };
  return {
    readableIds,
    /** Leaves out of live data the documents of pipelines the caller's badges do not open (`pipelineOf` names a document's pipeline). */
    liveVisible:
      <D>(pipelineOf: (doc: D) => string | null | undefined) =>
      async (caller: AuthContext, docs: readonly D[]): Promise<D[]> => {
        if (caller.roles.includes('super-admin') || docs.length === 0) return [...docs];
        const readable = await readableIds(
          caller,
          docs.flatMap((d) => pipelineOf(d) ?? []),
        );
        return docs.filter((d) => readable.has(pipelineOf(d) ?? ''));
      },
  };
}
