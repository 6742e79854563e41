import type { Insertable, Kysely } from 'kysely';
import type { Database, PipelinesTable } from '../../platform/db/tables.ts';

/** Reference values pipelines are selected by; those not given select every pipeline. */
export interface PipelineFilter {
  brand?: string | undefined;
  locale?: string | undefined;
  datakind?: string | undefined;
  productLine?: string | undefined;
}

/** SQL for pipelines. */
export function pipelinesRepo(k: Kysely<Database>) {
  const base = () => k.selectFrom('pipelines as p').selectAll('p');
  return {
    all: () => base().orderBy('p.name').orderBy('p.version').execute(),
    byId: (id: string) => base().where('p.id', '=', id).executeTakeFirst(),
    byIds: (ids: readonly string[]) => (ids.length ? base().where('p.id', 'in', ids).execute() : Promise.resolve([])),
    /** The name and version of each of these pipelines that exists. */
    namesOf: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k.selectFrom('pipelines').select(['id', 'name', 'version']).where('id', 'in', ids).execute(),
    /** Ids of the pipelines (all versions) of this brand, locale, data kind and product line, each when given. */
    idsWhere: async (filter: PipelineFilter) => {
      let q = k.selectFrom('pipelines').select('id');
      if (filter.brand) q = q.where('brand', '=', filter.brand);
      if (filter.locale) q = q.where('locale', '=', filter.locale);
      if (filter.datakind) q = q.where('datakind', '=', filter.datakind);
      if (filter.productLine) q = q.where('product_line', '=', filter.productLine);
      return (await q.execute()).map((r) => r.id);
    },
    masters: () => base().where('p.is_master', '=', true).orderBy('p.name').execute(),
    countriesOf: (masterId: string) => base().where('p.master_pipeline', '=', masterId).orderBy('p.name').execute(),
    /** The family of each of these pipelines that exists. */
    familiesOfIds: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k.selectFrom('pipelines').select(['id', 'family_id']).where('id', 'in', ids).execute(),
    /** The folder and badges of these pipeline versions, for the document access check. */
    badgesOfIds: (ids: readonly string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : k.selectFrom('pipelines').select(['id', 'folder_id', 'tags']).where('id', 'in', ids).execute(),
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
        .select(['family_id', 'name', 'version', 'is_master', 'brand', 'locale', 'product_line', 'datakind', 'folder_id', 'tags'])
        .distinctOn('family_id')
        .orderBy('family_id')
        .orderBy('version', 'desc')
        .execute(),
    insert: (row: Insertable<PipelinesTable>) => k.insertInto('pipelines').values(row).returning('id').executeTakeFirstOrThrow(),
  };
}

export type PipelineRow = NonNullable<Awaited<ReturnType<ReturnType<typeof pipelinesRepo>['byId']>>>;

export type FamilyRow = Awaited<ReturnType<ReturnType<typeof pipelinesRepo>['families']>>[number];
