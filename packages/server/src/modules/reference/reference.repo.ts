import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import { newId } from '../../platform/ids.ts';

/** SQL for brands, locales, product lines and datakinds. */
export function referenceRepo(k: Kysely<Database>) {
  return {
    brands: () => k.selectFrom('brands').selectAll().orderBy('name').execute(),
    locales: () => k.selectFrom('locales').selectAll().orderBy('language').orderBy('country').execute(),
    productLines: () => k.selectFrom('product_lines').selectAll().orderBy('name').execute(),
    datakinds: () => k.selectFrom('datakinds').selectAll().orderBy('name').execute(),
    addBrand: (name: string) =>
      k
        .insertInto('brands')
        .values({ id: newId(), name })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute(),
    addLocale: (l: { language: string; country: string; name: string }) =>
      k
        .insertInto('locales')
        .values({ id: newId(), ...l })
        .onConflict((oc) => oc.columns(['language', 'country']).doNothing())
        .execute(),
    addProductLine: (name: string) =>
      k
        .insertInto('product_lines')
        .values({ id: newId(), name })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute(),
    addDatakind: (name: string, isDealer: boolean) =>
      k
        .insertInto('datakinds')
        .values({ id: newId(), name, is_dealer: isDealer })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute(),
  };
}
