import type { ListAllQuery } from '@gdb/shared/imports/import.schemas';
import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import type { ImportsTable, JobsTable } from '../../platform/db/tables.ts';

export type ImportRow = Selectable<ImportsTable>;
export type JobRow = Selectable<JobsTable>;

const RUNNING = ['busy', 'progress', 'sequential'] as const;
const SCHEDULE_KINDS = ['scheduled', 'repeat'] as const;

/** SQL for imports, and their records: each with the kind of its job. */
export function importsRepo(k: Kysely<Database>) {
  return { ...importRowQueries(k), ...importQueueQueries(k), ...importLogbookQueries(k) };
}

/** Imports joined with the kind of their job. */
const importRecords = (k: Kysely<Database>) =>
  k.selectFrom('imports as i').leftJoin('jobs as j', 'j.id', 'i.job_id').selectAll('i').select('j.job_kind');

/** One import at a time: writes, reads by id, and the claim that starts a run. */
function importRowQueries(k: Kysely<Database>) {
  return {
    insert: (row: Insertable<ImportsTable>) => k.insertInto('imports').values(row).returningAll().executeTakeFirstOrThrow(),
    byId: (id: string) => k.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst(),
    /** One import with its job kind. */
    recordById: (id: string) => importRecords(k).where('i.id', '=', id).executeTakeFirst(),
    recordsByIds: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : importRecords(k)
            .where('i.id', 'in', [...ids])
            .orderBy('i.sort_at', 'desc')
            .execute(),
    update: (id: string, values: Updateable<ImportsTable>) =>
      k.updateTable('imports').set(values).where('id', '=', id).returningAll().executeTakeFirst(),
    delete: (id: string) => k.deleteFrom('imports').where('id', '=', id).execute(),
    /** Updates an import only while this worker holds its lease. */
    updateHeld: (id: string, workerId: string, values: Updateable<ImportsTable>) =>
      k
        .updateTable('imports')
        .set(values)
        .where('id', '=', id)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('import_leases as l')
              .select('l.import_id')
              .where('l.import_id', '=', id)
              .where('l.worker_id', '=', workerId),
          ),
        )
        .execute(),

    /** Moves a pending import to a running state; undefined when it is no longer pending. */
    claim: (id: string, state: 'busy' | 'sequential') =>
      k
        .updateTable('imports')
        .set((eb) => ({
          state,
          started_at: new Date(),
          end_at: null,
          progress: 0,
          success: false,
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .returningAll()
        .executeTakeFirst(),
  };
}

/**
 * Whether a pipeline is busy, in one statement: 'running' when it runs an import, 'pending'
 * when one waits to run now (an immediate one in the queue), else null.
 */
async function busyOf(k: Kysely<Database>, pipelineId: string, now: Date): Promise<'running' | 'pending' | null> {
  const row = await k
    .selectFrom('imports')
    .select((eb) =>
      eb.fn
        .max(
          eb
            .case()
            .when('state', 'in', [...RUNNING])
            .then(2)
            .else(1)
            .end(),
        )
        .as('busy'),
    )
    .where('pipeline_id', '=', pipelineId)
    .where((eb) =>
      eb.or([
        eb('state', 'in', [...RUNNING]),
        eb.and([
          eb('state', '=', 'pending'),
          eb('parent_import_id', 'is', null),
          eb.or([eb('scheduled_at', 'is', null), eb('scheduled_at', '<=', now)]),
        ]),
      ]),
    )
    .executeTakeFirst();
  const busy = Number(row?.busy ?? 0);
  return busy === 2 ? 'running' : busy === 1 ? 'pending' : null;
}

/** Which imports of a pipeline or job run, wait or follow one another. */
function importQueueQueries(k: Kysely<Database>) {
  return {
    /**
     * In a transaction: waits for and holds until its end the pipeline's import lock, which every
     * writer deciding whether the pipeline is idle takes (a new import, deleting the pipeline).
     */
    lockPipeline: async (pipelineId: string): Promise<void> => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`import:${pipelineId}`}, 0))`.execute(k);
    },
    /** The running import of a pipeline, if any. */
    busyOf: (pipelineId: string, now: Date) => busyOf(k, pipelineId, now),
    /** Pending imports of a job, soonest first. */
    pendingOfJob: (jobId: string) =>
      k
        .selectFrom('imports')
        .selectAll()
        .where('job_id', '=', jobId)
        .where('state', '=', 'pending')
        .orderBy('scheduled_at')
        .execute(),
    /** Waiting imports of these jobs. */
    pendingRecordsOfJobs: (jobIds: readonly string[]) =>
      jobIds.length === 0
        ? Promise.resolve([])
        : importRecords(k)
            .where('i.job_id', 'in', [...jobIds])
            .where('i.state', '=', 'pending')
            .orderBy('i.scheduled_at')
            .execute(),
    /** Hands the waiting imports of these jobs to another pipeline version (their jobs moved there). */
    movePendingOfJobs: (jobIds: readonly string[], pipelineId: string) =>
      jobIds.length === 0
        ? Promise.resolve([])
        : k
            .updateTable('imports')
            .set({ pipeline_id: pipelineId })
            .where('job_id', 'in', [...jobIds])
            .where('state', '=', 'pending')
            .execute(),
    /** Child imports of a sequential import, oldest first. */
    children: (parentId: string) =>
      k.selectFrom('imports').selectAll().where('parent_import_id', '=', parentId).orderBy('created_at').execute(),
    /** The newest import ids of a pipeline. */
    idsOf: async (pipelineId: string, limit: number) =>
      (
        await k
          .selectFrom('imports')
          .select('id')
          .where('pipeline_id', '=', pipelineId)
          .orderBy('sort_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .execute()
      ).map((r) => r.id),
    /** The import the wizard follows: a running one, else a waiting one, else the newest. */
    currentOf: (pipelineId: string) =>
      importRecords(k)
        .where('i.pipeline_id', '=', pipelineId)
        .where('i.parent_import_id', 'is', null)
        .orderBy(sql`case when i.state in ('busy', 'progress', 'sequential') then 0 when i.state = 'pending' then 1 else 2 end`)
        .orderBy('i.sort_at', 'desc')
        .limit(1)
        .executeTakeFirst(),
    /** Ids of imports waiting to run now (not a later time) or running. */
    activeIds: async (now: Date) =>
      (
        await k
          .selectFrom('imports')
          .select(['id', 'state'])
          .where((eb) =>
            eb.or([
              eb('state', 'in', [...RUNNING]),
              eb.and([eb('state', '=', 'pending'), eb.or([eb('scheduled_at', 'is', null), eb('scheduled_at', '<=', now)])]),
            ]),
          )
          .execute()
      ).map((r) => ({ id: r.id, state: r.state })),
  };
}

/** The logbook: pages of imports and the users who started them. */
function importLogbookQueries(k: Kysely<Database>) {
  return {
    /** One logbook page and the number of matching imports; `pipelineIds`, when given, are those the imports must be of. */
    async page(query: ListAllQuery, now: Date, pipelineIds?: readonly string[]) {
      if (pipelineIds?.length === 0) return { rows: [], total: 0 };
      let q = k.selectFrom('imports as i');
      if (pipelineIds) q = q.where('i.pipeline_id', 'in', [...pipelineIds]);
      if (query.user) q = q.where('i.user_id', '=', query.user);
      if (query.success !== undefined) q = q.where('i.success', '=', query.success);
      q =
        query.time === 'future'
          ? q.where('i.state', '=', 'pending').where('i.scheduled_at', '>', now)
          : q.where((eb) =>
              eb.or([eb('i.state', '<>', 'pending'), eb('i.scheduled_at', 'is', null), eb('i.scheduled_at', '<=', now)]),
            );
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const ids = await q
        .select('i.id')
        .orderBy('i.sort_at', query.time === 'future' ? 'asc' : 'desc')
        .orderBy('i.id', query.time === 'future' ? 'asc' : 'desc')
        .limit(query.nbItemsPerPage)
        .offset(query.pageNumber * query.nbItemsPerPage)
        .execute();
      const rows =
        ids.length === 0
          ? []
          : await importRecords(k)
              .where(
                'i.id',
                'in',
                ids.map((r) => r.id),
              )
              .execute();
      const order = new Map(ids.map((r, index) => [r.id, index]));
      rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
      return { rows, total: Number(total.n) };
    },
    /** Ids of the users who started or scheduled imports (of `pipelineIds` when given), for the logbook's user filter. */
    userIds: async (pipelineIds?: readonly string[]) => {
      if (pipelineIds?.length === 0) return [];
      let q = k.selectFrom('imports').select('user_id').distinct().where('user_id', 'is not', null);
      if (pipelineIds) q = q.where('pipeline_id', 'in', [...pipelineIds]);
      return (await q.execute()).flatMap((r) => (r.user_id ? [r.user_id] : []));
    },
  };
}

/** SQL for jobs: what schedules imports. */
export function jobsRepo(k: Kysely<Database>) {
  const views = () => k.selectFrom('jobs as j').selectAll('j');
  return {
    insert: (row: Insertable<JobsTable>) => k.insertInto('jobs').values(row).returningAll().executeTakeFirstOrThrow(),
    byId: (id: string) => k.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst(),
    viewById: (id: string) => views().where('j.id', '=', id).executeTakeFirst(),
    update: (id: string, values: Updateable<JobsTable>) =>
      k.updateTable('jobs').set(values).where('id', '=', id).returningAll().executeTakeFirst(),
    delete: (id: string) => k.deleteFrom('jobs').where('id', '=', id).execute(),
    /** The pipeline's active job of this schedule kind (one at most). */
    activeScheduleOf: (pipelineId: string, kind: 'scheduled' | 'repeat') =>
      k
        .selectFrom('jobs')
        .selectAll()
        .where('pipeline_id', '=', pipelineId)
        .where('state', '=', 'active')
        .where('job_kind', '=', kind)
        .executeTakeFirst(),
    /** The pipeline's active scheduled and repeat jobs (one of each at most), oldest first. */
    activeSchedulesOf: (pipelineId: string) =>
      views()
        .where('j.pipeline_id', '=', pipelineId)
        .where('j.state', '=', 'active')
        .where('j.job_kind', 'in', [...SCHEDULE_KINDS])
        .orderBy('j.created_at')
        .execute(),
    /** The active scheduled and repeat jobs of these pipelines, oldest first. */
    activeSchedulesOfMany: (pipelineIds: readonly string[]) =>
      pipelineIds.length === 0
        ? Promise.resolve([])
        : views()
            .where('j.pipeline_id', 'in', [...pipelineIds])
            .where('j.state', '=', 'active')
            .where('j.job_kind', 'in', [...SCHEDULE_KINDS])
            .orderBy('j.created_at')
            .execute(),
    /** Hands a pipeline's active scheduled and repeat jobs to another version of it; answers their ids. */
    moveSchedules: async (fromPipelineId: string, toPipelineId: string) =>
      (
        await k
          .updateTable('jobs')
          .set({ pipeline_id: toPipelineId })
          .where('pipeline_id', '=', fromPipelineId)
          .where('state', '=', 'active')
          .where('job_kind', 'in', [...SCHEDULE_KINDS])
          .returning('id')
          .execute()
      ).map((r) => r.id),
    /** Active scheduled and repeat jobs with their pipeline and author names. */
    activeSchedules: () =>
      views()
        .where('j.state', '=', 'active')
        .where('j.job_kind', 'in', [...SCHEDULE_KINDS])
        .orderBy('j.next_run_at')
        .execute(),
    /** Active schedules whose next run is due. */
    due: (now: Date) =>
      k
        .selectFrom('jobs')
        .selectAll()
        .where('state', '=', 'active')
        .where('job_kind', 'in', [...SCHEDULE_KINDS])
        .where('next_run_at', '<=', now)
        .orderBy('next_run_at')
        .limit(500)
        .execute(),
    /** Moves a job past the run due at `due`; false when another instance did it first. */
    advance: async (id: string, due: Date, values: Updateable<JobsTable>) => {
      const r = await k
        .updateTable('jobs')
        .set(values)
        .where('id', '=', id)
        .where('state', '=', 'active')
        .where('next_run_at', '=', due)
        .executeTakeFirst();
      return r.numUpdatedRows === 1n;
    },
  };
}

/** SQL for the leases workers hold on running imports. */
export function leasesRepo(k: Kysely<Database>) {
  return {
    insert: (importId: string, workerId: string) =>
      k.insertInto('import_leases').values({ import_id: importId, worker_id: workerId }).execute(),
    /** Gives up a lease; false when this worker no longer held it. */
    release: async (importId: string, workerId: string) => {
      const r = await k
        .deleteFrom('import_leases')
        .where('import_id', '=', importId)
        .where('worker_id', '=', workerId)
        .executeTakeFirst();
      return r.numDeletedRows === 1n;
    },
    holds: async (importId: string, workerId: string) =>
      (await k
        .selectFrom('import_leases')
        .select('import_id')
        .where('import_id', '=', importId)
        .where('worker_id', '=', workerId)
        .executeTakeFirst()) !== undefined,
    /** Renews this worker's leases; answers those still held and whether a stop was asked. */
    heartbeat: (workerId: string, importIds: readonly string[]) =>
      importIds.length === 0
        ? Promise.resolve([])
        : k
            .updateTable('import_leases')
            .set({ heartbeat_at: new Date() })
            .where('worker_id', '=', workerId)
            .where('import_id', 'in', [...importIds])
            .returning(['import_id', 'abort_requested'])
            .execute(),
    requestAbort: async (importIds: readonly string[]) =>
      importIds.length === 0
        ? 0
        : Number(
            (
              await k
                .updateTable('import_leases')
                .set({ abort_requested: true })
                .where('import_id', 'in', [...importIds])
                .executeTakeFirst()
            ).numUpdatedRows,
          ),
    /** Leases not renewed since `before`, except those listed (held by a live run of this process). */
    stale: (before: Date, except: readonly string[]) => {
      let q = k.selectFrom('import_leases').selectAll().where('heartbeat_at', '<', before);
      if (except.length > 0) q = q.where('import_id', 'not in', [...except]);
      return q.limit(100).execute();
    },
    /** Takes over a lease that is still stale; undefined when it was renewed or taken meanwhile. */
    takeStale: (importId: string, workerId: string, before: Date) =>
      k
        .deleteFrom('import_leases')
        .where('import_id', '=', importId)
        .where('worker_id', '=', workerId)
        .where('heartbeat_at', '<', before)
        .returning(['import_id', 'abort_requested'])
        .executeTakeFirst(),
    byImport: (importId: string) =>
      k.selectFrom('import_leases').selectAll().where('import_id', '=', importId).executeTakeFirst(),
  };
}

/** SQL of the live channel's imports: the newest of a selection, and the pipelines of imports. */
export function importsLiveRepo(k: Kysely<Database>) {
  return {
    /** The newest `limit` imports, of these ids and pipelines when given, newest first. */
    newest: (sel: { ids?: readonly string[] | undefined; pipelineIds?: readonly string[] | undefined }, limit: number) => {
      let q = k.selectFrom('imports').selectAll();
      if (sel.ids) q = q.where('id', 'in', [...sel.ids]);
      if (sel.pipelineIds) q = q.where('pipeline_id', 'in', [...sel.pipelineIds]);
      return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    /** The pipeline of each of these imports that exists. */
    pipelinesOf: (ids: readonly string[]) =>
      k
        .selectFrom('imports')
        .select(['id', 'pipeline_id as owner'])
        .where('id', 'in', [...ids])
        .execute(),
  };
}
