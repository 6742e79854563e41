import { type PipelineView, sortPipelines } from '@gdb/shared/pipelines/pipeline.schemas';

/** The four attributes a pipeline is chosen by (ids; null: any). */
export interface PipelineFilter {
  brand: string | null;
  locale: string | null;
  productLine: string | null;
  datakind: string | null;
}

export const EMPTY_FILTER: PipelineFilter = { brand: null, locale: null, productLine: null, datakind: null };

/** The pipelines matching the filter, masters first, then by name ignoring case (docs/product.md §8.4). */
export function filterPipelines(list: readonly PipelineView[], filter: PipelineFilter): PipelineView[] {
  return sortPipelines(
    list.filter(
      (p) =>
        !p.isHidden &&
        (!filter.brand || p.brand?._id === filter.brand) &&
        (!filter.locale || p.locale?._id === filter.locale) &&
        (!filter.productLine || p.productLine?._id === filter.productLine) &&
        (!filter.datakind || p.datakind?._id === filter.datakind),
    ),
  );
}

/** Manager and super-admin see versions and lock icons in the pipeline list (docs/product.md §2.2). */
export function seesVersions(roles: readonly string[]): boolean {
  return roles.includes('manager') || roles.includes('super-admin');
}

/** Manager, admin and super-admin see them in the country pipeline list. */
export function seesCountryVersions(roles: readonly string[]): boolean {
  return seesVersions(roles) || roles.includes('admin');
}
