import { sql } from 'kysely';
import type { Executor } from '../../platform/db/transaction.ts';
import { conflict } from '../../platform/http/errors.ts';
import { importsRepo } from './imports.repo.ts';

/** The refusal of DELETE /pipelines while an import of a pipeline it would delete runs or waits to run. */
export const PIPELINE_BUSY_MESSAGE =
  'This pipeline cannot be deleted while an import of it is running or waiting to run: stop the import first.';

/**
 * Whether an import of one of these pipelines runs or waits to run now: its own, or a master's
 * sequential import whose list names one of them (a later scheduled or repeat run does not count).
 */
async function busy(k: Executor, pipelineIds: readonly string[], now: Date): Promise<boolean> {
  const ids = sql`array[${sql.join(pipelineIds.map((id) => sql`${id}::uuid`))}]::uuid[]`;
  const found = await k
    .selectFrom('imports as i')
    .leftJoin('jobs as j', 'j.id', 'i.job_id')
    .select('i.id')
    .where((eb) =>
      eb.or([
        eb('i.state', 'in', ['busy', 'progress', 'sequential']),
        eb.and([eb('i.state', '=', 'pending'), eb.or([eb('i.scheduled_at', 'is', null), eb('i.scheduled_at', '<=', now)])]),
      ]),
    )
    .where((eb) => eb.or([eb('i.pipeline_id', 'in', [...pipelineIds]), sql<boolean>`j.list_pipelines && ${ids}`]))
    .limit(1)
    .execute();
  return found.length > 0;
}

/**
 * What deleting pipelines asks of the imports and jobs (DELETE /pipelines): refused (409) while an
 * import of one of them runs or waits to run; inside the deleting transaction, their active jobs
 * (scheduled, repeat) and the imports waiting for a later run go, so nothing fires for a pipeline
 * that is gone. Finished imports and jobs stay, naming no pipeline.
 */
export function pipelineRemoval(db: Executor) {
  return {
    /** 409 while an import of one of these pipelines runs or waits to run now. */
    async assertIdle(pipelineIds: readonly string[], now = new Date()): Promise<void> {
      if (pipelineIds.length > 0 && (await busy(db, pipelineIds, now))) throw conflict(PIPELINE_BUSY_MESSAGE);
    },
    /**
     * In the deleting transaction `trx`: takes each pipeline's import lock (as a new import does, so
     * none starts meanwhile), checks again, then deletes their active jobs and waiting imports.
     */
    async release(trx: Executor, pipelineIds: readonly string[]): Promise<void> {
      if (pipelineIds.length === 0) return;
      const queue = importsRepo(trx);
      // In one order, so two deletions sharing pipelines cannot each hold one the other waits for.
      for (const id of [...pipelineIds].sort()) await queue.lockPipeline(id);
      if (await busy(trx, pipelineIds, new Date())) throw conflict(PIPELINE_BUSY_MESSAGE);
      // The jobs first: a clock tick moving one on is waited for, and the import it adds is then seen below.
      await trx
        .deleteFrom('jobs')
        .where('pipeline_id', 'in', [...pipelineIds])
        .where('state', '=', 'active')
        .execute();
      await trx
        .deleteFrom('imports')
        .where('pipeline_id', 'in', [...pipelineIds])
        .where('state', '=', 'pending')
        .execute();
    },
  };
}
