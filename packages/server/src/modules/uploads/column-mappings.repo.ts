import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/tables.ts';

type Choices = { column: string; field: string | null }[];

/** SQL for the data sources' column mappings. */
export function columnMappingsRepo(k: Kysely<Database>) {
  return {
    /** A data source's mappings, newest first. */
    ofSource: (pipelineId: string, dataSubKind: string) =>
      k
        .selectFrom('column_mappings')
        .select(['columns', 'updated_at'])
        .where('pipeline_id', '=', pipelineId)
        .where('data_sub_kind', '=', dataSubKind)
        .orderBy('updated_at', 'desc')
        .execute(),
    /** Stores the mapping of one header of a data source, replacing the one stored for it. */
    put: (row: { pipelineId: string; dataSubKind: string; signatureHash: string; columns: Choices; by: string | null }) =>
      k
        .insertInto('column_mappings')
        .values({
          pipeline_id: row.pipelineId,
          data_sub_kind: row.dataSubKind,
          signature_hash: row.signatureHash,
          columns: JSON.stringify(row.columns),
          updated_by: row.by,
        })
        .onConflict((oc) =>
          oc
            .columns(['pipeline_id', 'data_sub_kind', 'signature_hash'])
            .doUpdateSet({ columns: JSON.stringify(row.columns), updated_at: new Date(), updated_by: row.by }),
        )
        .returning(['columns', 'updated_at'])
        .executeTakeFirstOrThrow(),
  };
}
