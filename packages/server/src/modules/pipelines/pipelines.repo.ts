import type { Insertable, Kysely } from 'kysely';
import type { Database, PipelinesTable } from '../../platform/db/tables.ts';

/** SQL for pipelines, each row joined with its reference data. */
export function pipelinesRepo(k: Kysely<Database>) {
  const base = () =>
    k
      .selectFrom('pipelines as p')
      .leftJoin('brands as b', 'b.id', 'p.brand')
      .leftJoin('locales as l', 'l.id', 'p.locale')
      .leftJoin('product_lines as pl', 'pl.id', 'p.product_line')
      .leftJoin('datakinds as d', 'd.id', 'p.datakind')
      .selectAll('p')
      .select([
        'b.name as brand_name',
        'l.language as locale_language',
        'l.country as locale_country',
        'l.name as locale_name',
        'pl.name as product_line_name',
        'd.name as datakind_name',
        'd.is_dealer as datakind_is_dealer',
      ]);
  return {
    all: () => base().orderBy('p.name').orderBy('p.version').execute(),
    byId: (id: string) => base().where('p.id', '=', id).executeTakeFirst(),
    byIds: (ids: readonly string[]) => (ids.length ? base().where('p.id', 'in', ids).execute() : Promise.resolve([])),
    masters: () => base().where('p.is_master', '=', true).orderBy('p.name').execute(),
    countriesOf: (masterId: string) => base().where('p.master_pipeline', '=', masterId).orderBy('p.name').execute(),
    /** The family of each of these pipelines that exists. */
    familiesOfIds: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k.selectFrom('pipelines').select(['id', 'family_id']).where('id', 'in', ids).execute(),
    /** The families of pipeline ids that are version ids or family ids. */
    familiesOf: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k
            .selectFrom('pipelines')
            .select(['id', 'family_id'])
            .where((eb) => eb.or([eb('id', 'in', ids), eb('family_id', 'in', ids)]))
            .execute(),
    /** One row per pipeline family: its newest version. */
    families: () =>
      k
        .selectFrom('pipelines')
        .select(['family_id', 'name', 'version', 'is_master', 'brand', 'locale', 'product_line', 'datakind'])
        .distinctOn('family_id')
        .orderBy('family_id')
        .orderBy('version', 'desc')
        .execute(),
    insert: (row: Insertable<PipelinesTable>) => k.insertInto('pipelines').values(row).returning('id').executeTakeFirstOrThrow(),
  };
}

export type PipelineRow = NonNullable<Awaited<ReturnType<ReturnType<typeof pipelinesRepo>['byId']>>>;

export type FamilyRow = Awaited<ReturnType<ReturnType<typeof pipelinesRepo>['families']>>[number];
