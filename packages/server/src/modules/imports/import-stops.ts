import { hasAnyRole } from '@gdb/shared/auth/roles';
import { IMPORT_MESSAGES, isRunningState, mayCreateJobKind } from '@gdb/shared/imports/import-rules';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { conflict, forbidden, notFound } from '../../platform/http/errors.ts';
import { importsRepo, jobsRepo, leasesRepo } from './imports.repo.ts';
import { dropWaiting, type JobsScope, jobFor } from './job-writes.ts';

/** What stopping and deleting imports needs: the jobs' scope and a way to stop a run of this process at once. */
export interface StopsScope extends JobsScope {
  stopLocal: (importId: string, reason: 'stop') => boolean;
}

/** An import the caller may act on: one of a pipeline it may use (managers also those of removed pipelines). */
async function importFor(s: StopsScope, auth: AuthContext, importId: string) {
  const row = await importsRepo(s.db).byId(importId);
  if (!row) throw notFound('Import not found.');
  if (row.pipeline_id) await s.pipelines.byId(auth, row.pipeline_id);
  else if (!hasAnyRole(auth.roles, ['manager', 'super-admin'])) throw forbidden();
  return row;
}

/** Aborts a waiting import at once; an immediate or sequential job ends with it. */
async function abortWaiting(s: StopsScope, id: string): Promise<void> {
  await s.db.transaction().execute(async (trx) => {
    const row = await importsRepo(trx).byId(id);
    if (row?.state !== 'pending') return;
    await importsRepo(trx).update(id, { state: 'aborted', success: false, end_at: new Date() });
    await s.logs.append({ level: 'warn', message: IMPORT_MESSAGES.aborted, importId: id }, trx);
    const job = row.job_id ? await jobsRepo(trx).byId(row.job_id) : undefined;
    if (job && (job.job_kind === 'immediate' || job.job_kind === 'sequential')) {
      await jobsRepo(trx).update(job.id, { state: 'done' });
    }
  });
}

/** Stops imports: waiting ones at once, running ones (and their running children) through their lease, on any instance. */
export async function stopImports(s: StopsScope, ids: readonly { id: string; state: string }[]): Promise<void> {
  for (const { id, state } of ids) if (state === 'pending') await abortWaiting(s, id);
  const running = ids.filter((i) => isRunningState(i.state)).map((i) => i.id);
  const children = [];
  for (const id of running) children.push(...(await importsRepo(s.db).children(id)).filter((c) => isRunningState(c.state)));
  const all = [...running, ...children.map((c) => c.id)];
  await leasesRepo(s.db).requestAbort(all);
  for (const id of all) s.stopLocal(id, 'stop');
}

/** Stops one import (POST /imports/abort): a waiting one at once, a running one on whatever instance runs it. */
export async function abortImport(s: StopsScope, auth: AuthContext, importId: string) {
  const row = await importFor(s, auth, importId);
  if (row.state !== 'pending' && !isRunningState(row.state)) throw conflict('The import is not running.');
  await stopImports(s, [{ id: row.id, state: row.state }]);
  const after = await importsRepo(s.db).byId(row.id);
  return { importId: row.id, state: after?.state ?? row.state };
}

/** Deletes a job and its waiting imports (DELETE /imports/job); a running import of it goes on. */
export async function deleteJob(s: StopsScope, auth: AuthContext, jobId: string): Promise<void> {
  const { job } = await jobFor(s, auth, jobId);
  await s.db.transaction().execute(async (trx) => {
    await dropWaiting(trx, job.id);
    await jobsRepo(trx).delete(job.id);
  });
}

/**
 * Deletes an import record (DELETE /imports). A waiting import takes its job with it (the
 * wizard's cancel: 'The current import is cancelled.'); a running one must be stopped first.
 */
export async function deleteImport(s: StopsScope, auth: AuthContext, importId: string): Promise<void> {
  const row = await importFor(s, auth, importId);
  if (isRunningState(row.state)) throw conflict(IMPORT_MESSAGES.deleteRunning);
  // Cancelling a waiting import removes its job: only for a job kind the caller may create.
  const job = row.state === 'pending' && row.job_id ? await jobsRepo(s.db).byId(row.job_id) : undefined;
  if (job && !mayCreateJobKind(auth.roles, job.job_kind)) throw forbidden(IMPORT_MESSAGES.jobNotYours);
  await s.db.transaction().execute(async (trx) => {
    for (const child of await importsRepo(trx).children(row.id)) await importsRepo(trx).delete(child.id);
    await importsRepo(trx).delete(row.id);
    if (row.state === 'pending' && row.job_id && !row.parent_import_id) {
      await dropWaiting(trx, row.job_id);
      await jobsRepo(trx).delete(row.job_id);
    }
  });
}
