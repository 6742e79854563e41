import type { Brand, Datakind, Locale, ProductLine } from '@gdb/shared/reference/reference.schemas';
import type { AppContext } from '../../platform/context.ts';
import { referenceRepo } from './reference.repo.ts';
import { SEED_BRANDS, SEED_DATAKINDS, SEED_LOCALES, SEED_PRODUCT_LINES } from './reference.seed.ts';

/**
 * How long a reference list read from the database is answered from memory. Only the start-up
 * seed writes these tables, so the screens' start-up reads need not query them every time.
 */
export const REFERENCE_TTL_MS = 60_000;

/** A list read at most once per REFERENCE_TTL_MS (a failed read is not kept); each caller gets its own array. */
function kept<T>(read: () => Promise<T[]>): { get: () => Promise<T[]>; forget: () => void } {
  let held: { at: number; list: Promise<T[]> } | undefined;
  return {
    get: () => {
      const now = Date.now();
      if (!held || now - held.at >= REFERENCE_TTL_MS) {
        const list = read();
        const entry = { at: now, list };
        held = entry;
        list.catch(() => {
          if (held === entry) held = undefined;
        });
      }
      return held.list.then((list) => [...list]);
    },
    forget: () => {
      held = undefined;
    },
  };
}

export function referenceService(ctx: AppContext) {
  const repo = referenceRepo(ctx.db.kysely);
  const lists = {
    brands: kept(async (): Promise<Brand[]> => (await repo.brands()).map((r) => ({ _id: r.id, name: r.name }))),
    locales: kept(
      async (): Promise<Locale[]> =>
        (await repo.locales()).map((r) => ({ _id: r.id, language: r.language, country: r.country, name: r.name })),
    ),
    productLines: kept(async (): Promise<ProductLine[]> => (await repo.productLines()).map((r) => ({ _id: r.id, name: r.name }))),
    datakinds: kept(
      async (): Promise<Datakind[]> => (await repo.datakinds()).map((r) => ({ _id: r.id, name: r.name, isDealer: r.is_dealer })),
    ),
  };
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
      for (const list of Object.values(lists)) list.forget();
    },
    brands: lists.brands.get,
    locales: lists.locales.get,
    productLines: lists.productLines.get,
    datakinds: lists.datakinds.get,
  };
}

export type ReferenceService = ReturnType<typeof referenceService>;
