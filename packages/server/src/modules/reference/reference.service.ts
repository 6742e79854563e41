import type { Brand, Datakind, Locale, ProductLine } from '@gdb/shared/reference/reference.schemas';
import type { AppContext } from '../../platform/context.ts';
import { referenceRepo } from './reference.repo.ts';
import { SEED_BRANDS, SEED_DATAKINDS, SEED_LOCALES, SEED_PRODUCT_LINES } from './reference.seed.ts';

export function referenceService(ctx: AppContext) {
  const repo = referenceRepo(ctx.db.kysely);
  return {
    /** Inserts the reference data that is missing; running it again changes nothing. */
    async seed(): Promise<void> {
      await ctx.db.kysely.transaction().execute(async (trx) => {
        const repo = referenceRepo(trx);
        for (const b of SEED_BRANDS) await repo.addBrand(b);
        for (const l of SEED_LOCALES) await repo.addLocale(l);
        for (const p of SEED_PRODUCT_LINES) await repo.addProductLine(p);
        const hasDealer = (await repo.datakinds()).some((d) => d.is_dealer);
        for (const d of SEED_DATAKINDS) await repo.addDatakind(d.name, d.isDealer && !hasDealer);
      });
    },
    brands: async (): Promise<Brand[]> => (await repo.brands()).map((r) => ({ _id: r.id, name: r.name })),
    locales: async (): Promise<Locale[]> =>
      (await repo.locales()).map((r) => ({ _id: r.id, language: r.language, country: r.country, name: r.name })),
    productLines: async (): Promise<ProductLine[]> => (await repo.productLines()).map((r) => ({ _id: r.id, name: r.name })),
    datakinds: async (): Promise<Datakind[]> =>
      (await repo.datakinds()).map((r) => ({ _id: r.id, name: r.name, isDealer: r.is_dealer })),
  };
}

export type ReferenceService = ReturnType<typeof referenceService>;
