import { hasAnyRole } from '@gdb/shared/auth/roles';
import { isEmptyFilter, type NormalFilter } from '@gdb/shared/live/filter';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who asks: the signed-in user and their roles. */
export interface PipelineReader {
  userId: string;
  roles: readonly string[];
}

/**
 * True when the caller may read this pipeline's uploads, logs and imports (`null`: those of every
 * pipeline at once): managers, admins and super-admins may read every pipeline; a user only the
 * pipelines whose family is assigned to them and active.
 */
async function mayReadPipeline(k: Kysely<Database>, caller: PipelineReader, pipelineId: string | null): Promise<boolean> {
  if (hasAnyRole(caller.roles, ['super-admin', 'admin', 'manager'])) return true;
  if (pipelineId === null || !hasAnyRole(caller.roles, ['user']) || !UUID.test(pipelineId)) return false;
  const row = await k
    .selectFrom('pipelines as p')
    .innerJoin('user_pipelines as up', 'up.pipeline_family', 'p.family_id')
    .select('p.id')
    .where('p.id', '=', pipelineId)
    .where('up.user_id', '=', caller.userId)
    .where('up.is_active', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

/** The pipelines a live filter reaches; undefined when a document it names does not exist or has none. */
export type FilterPipelines = (filter: NormalFilter) => Promise<readonly string[] | undefined>;

/**
 * The read rule of live documents that belong to pipelines, allowed where the equivalent read is:
 * managers, admins and super-admins read every pipeline and may use an empty filter; a user must
 * name documents, each existing, of pipelines assigned to them and active.
 */
export function pipelineReadRule(k: Kysely<Database>, pipelinesOf: FilterPipelines) {
  return async (caller: PipelineReader, filter: NormalFilter): Promise<boolean> => {
    if (await mayReadPipeline(k, caller, null)) return true;
    if (isEmptyFilter(filter)) return false;
    const pipelines = await pipelinesOf(filter);
    if (!pipelines) return false;
    for (const pipeline of pipelines) if (!(await mayReadPipeline(k, caller, pipeline))) return false;
    return true;
  };
}
