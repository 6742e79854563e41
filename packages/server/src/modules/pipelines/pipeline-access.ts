import { hasAnyRole } from '@gdb/shared/auth/roles';
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
export async function mayReadPipeline(k: Kysely<Database>, caller: PipelineReader, pipelineId: string | null): Promise<boolean> {
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
