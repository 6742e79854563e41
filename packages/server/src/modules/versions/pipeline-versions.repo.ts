import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/tables.ts';
import type { VersionedRow } from './versions.repo.ts';

/** SQL the pipeline version calls add to the engine's: the countries of masters and each family's newest version. */
export function pipelineVersionsRepo(db: Kysely<Database>) {
  return {
    /** The pipeline versions whose master is one of these versions. */
    countriesOf: async (masterIds: readonly string[]) =>
      masterIds.length === 0
        ? []
        : ((await db.selectFrom('pipelines').selectAll().where('master_pipeline', 'in', masterIds).execute()) as VersionedRow[]),
    /** The number the next version of each of these pipeline families would get, by family id. */
    nextNumbers: async (familyIds: readonly string[]) => {
      if (familyIds.length === 0) return new Map<string, number>();
      const rows = await db
        .selectFrom('pipelines')
        .select((eb) => ['family_id', eb.fn.max('version').as('top')])
        .where('family_id', 'in', [...familyIds])
        .groupBy('family_id')
        .execute();
      return new Map(rows.map((r) => [r.family_id, Number(r.top) + 1]));
    },
    /** The newest version (by number) of every pipeline family. */
    newestOfEveryFamily: async () =>
      (await sql`select distinct on (family_id) * from pipelines order by family_id, version desc`.execute(db))
        .rows as VersionedRow[],
  };
}
