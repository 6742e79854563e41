import { hasAnyRole } from '@gdb/shared/auth/roles';
import { isEmptyFilter, type NormalFilter } from '@gdb/shared/live/filter';
import { isUuid } from '../../platform/ids.ts';

/** Who asks: the signed-in user and their roles. */
interface PipelineReader {
  userId: string;
  roles: readonly string[];
}

/** The pipelines a live filter reaches; undefined when a document it names does not exist or has none. */
export type FilterPipelines = (filter: NormalFilter) => Promise<readonly string[] | undefined>;

/** What the rule reads: the families of pipelines, and the families assigned to a user and active. */
interface AccessReads {
  familiesOfIds(ids: readonly string[]): Promise<{ id: string; family_id: string }[]>;
  assignedFamilies(userId: string): Promise<string[]>;
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
 * the equivalent read is: managers, admins and super-admins read every pipeline and may use an
 * empty filter; a user must name documents, each existing, of pipelines assigned to them and active.
 */
export function pipelineReadRule(reads: AccessReads, pipelinesOf: FilterPipelines) {
  return async (caller: PipelineReader, filter: NormalFilter): Promise<boolean> => {
    if (hasAnyRole(caller.roles, ['super-admin', 'admin', 'manager'])) return true;
    if (isEmptyFilter(filter)) return false;
    const pipelines = await pipelinesOf(filter);
    return pipelines !== undefined && assignedEach(reads, caller, pipelines);
  };
}
