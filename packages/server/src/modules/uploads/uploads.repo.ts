import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { Database, UploadsTable } from '../../platform/db/tables.ts';

export type UploadRow = Selectable<UploadsTable>;

/** SQL for uploads and produced files. */
export function uploadsRepo(k: Kysely<Database>) {
  return { ...uploadRowQueries(k), ...sourceQueries(k), ...outputQueries(k), ...checkClaimQueries(k) };
}

/** Uploads by id: writes, reads, and the file keys they reference. */
function uploadRowQueries(k: Kysely<Database>) {
  return {
    insert: (rows: Insertable<UploadsTable>[]) => k.insertInto('uploads').values(rows).returningAll().execute(),
    /** Which of these file keys an upload references, as its file or its checked rows. */
    async referencedKeys(keys: readonly string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await k
        .selectFrom('uploads')
        .select(['file_key', 'rows_key'])
        .where((eb) => eb.or([eb('file_key', 'in', keys), eb('rows_key', 'in', keys)]))
        .execute();
      return new Set(rows.flatMap((r) => [r.file_key, r.rows_key]).filter((key) => key !== null));
    },
    byIds: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom('uploads')
            .selectAll()
            .where('id', 'in', [...ids])
            .execute(),
    byId: (id: string) => k.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst(),
    /** The newest `limit` uploads, of these ids when given, newest first (the live channel's reads). */
    newest: (ids: readonly string[] | undefined, limit: number) => {
      let q = k.selectFrom('uploads').selectAll();
      if (ids) q = q.where('id', 'in', [...ids]);
      return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    },
    /** The pipeline of each of these uploads that exists. */
    pipelinesOf: (ids: readonly string[]) =>
      k
        .selectFrom('uploads')
        .select(['id', 'pipeline_id as owner'])
        .where('id', 'in', [...ids])
        .execute(),
    update: (id: string, values: Updateable<UploadsTable>) => k.updateTable('uploads').set(values).where('id', '=', id).execute(),
  };
}

/** The source uploads of a pipeline: the newest ones shown, and those a run takes. */
function sourceQueries(k: Kysely<Database>) {
  return {
    /** The newest `limit` source uploads of each data source of a pipeline, newest first. */
    lastOf: (pipelineId: string, dataSubKinds: readonly string[], limit: number) =>
      dataSubKinds.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom((eb) =>
              eb
                .selectFrom('uploads')
                .selectAll()
                .select(sql<number>`row_number() over (partition by data_sub_kind order by created_at desc, id desc)`.as('rank'))
                .where('pipeline_id', '=', pipelineId)
                .where('from', '=', 'source')
                .where('data_sub_kind', 'in', [...dataSubKinds])
                .as('u'),
            )
            .selectAll()
            .where('rank', '<=', limit)
            .orderBy('created_at', 'desc')
            .orderBy('id', 'desc')
            .execute(),
    /**
     * What the wizard lists of one data source, in one statement: its newest `limit` source
     * uploads and, when `withRunnable`, every older one a run takes (see `runnableOf`); newest first.
     */
    shownOf: (pipelineId: string, dataSubKind: string, limit: number, withRunnable: boolean) =>
      k
        .selectFrom((eb) =>
          eb
            .selectFrom('uploads')
            .selectAll()
            .select(sql<number>`row_number() over (order by created_at desc, id desc)`.as('rank'))
            .where('pipeline_id', '=', pipelineId)
            .where('from', '=', 'source')
            .where('data_sub_kind', '=', dataSubKind)
            .as('u'),
        )
        .selectAll()
        .where((eb) =>
          withRunnable
            ? eb.or([
                eb('rank', '<=', limit),
                eb.and([
                  eb('enabled', '=', true),
                  eb.or([
                    eb.and([eb('status', '=', 'valid'), eb('rows_key', 'is not', null)]),
                    eb('status', 'in', ['pending', 'processing']),
                  ]),
                ]),
              ])
            : eb('rank', '<=', limit),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    /**
     * Every pipeline and data source with source uploads a run would take and none has imported
     * yet (switched on, valid, rows stored), with who stored them; oldest first.
     */
    waitingSources: () =>
      k
        .selectFrom('uploads')
        .select(['pipeline_id', 'data_sub_kind', 'created_by'])
        .select((eb) => eb.fn.max('created_at').as('last_at'))
        .where('from', '=', 'source')
        .where('enabled', '=', true)
        .where('status', '=', 'valid')
        .where('rows_key', 'is not', null)
        .where('imported_at', 'is', null)
        .groupBy(['pipeline_id', 'data_sub_kind', 'created_by'])
        .orderBy('last_at')
        .execute(),
    /**
     * The source uploads of one data source a run takes: the enabled ones that are valid with
     * their checked rows stored, or still being checked; oldest first.
     */
    runnableOf: (pipelineId: string, dataSubKind: string) =>
      k
        .selectFrom('uploads')
        .selectAll()
        .where('pipeline_id', '=', pipelineId)
        .where('data_sub_kind', '=', dataSubKind)
        .where('from', '=', 'source')
        .where('enabled', '=', true)
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'valid'), eb('rows_key', 'is not', null)]),
            eb('status', 'in', ['pending', 'processing']),
          ]),
        )
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
  };
}

/** The output files of a pipeline's imports. */
function outputQueries(k: Kysely<Database>) {
  return {
    /**
     * The output files of a pipeline's newest import that produced any: its destination uploads,
     * the newest per data sink (a restarted run writes its sinks again), newest first. Only those
     * of an import that ended done count (see `settleOutputs`).
     */
    latestOutputs: (pipelineId: string) =>
      k
        .selectFrom((eb) =>
          eb
            .selectFrom('uploads')
            .selectAll()
            .select(sql<number>`row_number() over (partition by data_sub_kind order by created_at desc, id desc)`.as('rank'))
            .where('pipeline_id', '=', pipelineId)
            .where('from', '=', 'destination')
            .where('status', '=', 'valid')
            .where('import_id', '=', (sub) =>
              sub
                .selectFrom('uploads')
                .select('import_id')
                .where('pipeline_id', '=', pipelineId)
                .where('from', '=', 'destination')
                .where('status', '=', 'valid')
                .where('import_id', 'is not', null)
                .orderBy('created_at', 'desc')
                .orderBy('id', 'desc')
                .limit(1),
            )
            .as('u'),
        )
        .selectAll()
        .where('rank', '=', 1)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    /** Marks source uploads as taken by a done import, and switched off so that the next run leaves them. */
    markImported: (importId: string, ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve()
        : k
            .updateTable('uploads')
            .set({ imported_at: new Date(), imported_by: importId, enabled: false })
            .where('id', 'in', [...ids])
            .where('from', '=', 'source')
            .execute()
            .then(() => undefined),
    /** Sets the status of an import's output files. */
    settleOutputs: (importId: string, status: 'valid' | 'invalid') =>
      k
        .updateTable('uploads')
        .set({ status })
        .where('import_id', '=', importId)
        .where('from', '=', 'destination')
        .where('status', '=', 'processing')
        .execute(),
  };
}

/** The claims on uploads being checked, so that one instance checks each. */
function checkClaimQueries(k: Kysely<Database>) {
  return {
    /** Claims a pending upload for parsing; false when another worker has it. */
    claim: async (id: string) => {
      const r = await k
        .updateTable('uploads')
        .set({ status: 'processing', claimed_at: new Date() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return r.numUpdatedRows === 1n;
    },
    /** Uploads left unfinished: pending ones stored before `pendingBefore`, processing ones whose claim is older than `staleBefore`. */
    unfinished: (staleBefore: Date, pendingBefore: Date) =>
      k
        .selectFrom('uploads')
        .select(['id', 'status'])
        .where('from', '=', 'source')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'pending'), eb('created_at', '<', pendingBefore)]),
            eb.and([eb('status', '=', 'processing'), eb('claimed_at', '<', staleBefore)]),
          ]),
        )
        .orderBy('created_at')
        .limit(1000)
        .execute(),
    /** Renews the claim of an upload being checked, so that no other instance takes it over. */
    renewClaim: (id: string) =>
      k.updateTable('uploads').set({ claimed_at: new Date() }).where('id', '=', id).where('status', '=', 'processing').execute(),
    release: (id: string) =>
      k
        .updateTable('uploads')
        .set({ status: 'pending', claimed_at: null })
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .execute(),
  };
}
