import type { PipelineView, UserPipelines } from '@gdb/shared/pipelines/pipeline.schemas';

/** The reference lists the form's selects offer. */
export type ReferenceLists = UserPipelines['staticTypes'];

/** What a country pipeline copies from its master when it is chosen, and empties when it is cleared (docs/product.md §8.3). */
export const INHERITED_FIELDS = [
  'pipelineSchema',
  'dataSources',
  'dataSinks',
  'brand',
  'locale',
  'productLine',
  'datakind',
  'component',
] as const;

type Json = Record<string, unknown>;

const select = (title: string, options: { value: string; label: string }[]): Json => ({
  type: 'string',
  title,
  ui: { label: title, widget: 'select', widgetConfig: { enumSource: options } },
});

/**
 * The stored form with its reference fields as selects of the reference lists: brand, locale
 * (stored as a language and a country, chosen here as one locale), product line and datakind.
 */
export function formSchemaOf(stored: Json, lists: ReferenceLists): Json {
  const properties = { ...((stored.properties as Json | undefined) ?? {}) };
  const named = (list: readonly { _id: string; name: string }[]) => list.map((x) => ({ value: x._id, label: x.name }));
  properties.brand = select('Brand', named(lists.brands));
  properties.locale = select(
    'Locale',
    lists.locales.map((l) => ({ value: l._id, label: `${l.name} (${l.language}_${l.country})` })),
  );
  properties.productLine = select('Product line', named(lists.productLines));
  properties.datakind = select('Datakind', named(lists.datakinds));
  return { ...stored, properties };
}

/** The fields the form edits, references as ids ('' for none). */
export function formValueOf(p: PipelineView): Json {
  return {
    name: p.name,
    isMaster: p.isMaster,
    masterPipeline: p.masterPipeline ?? '',
    ...inheritedValues(p),
    isHidden: p.isHidden,
  };
}

/** The inherited fields of a master (its values), or of none (emptied). */
export function inheritedValues(master: PipelineView | null): Json {
  return {
    pipelineSchema: master?.pipelineSchema ?? '',
    dataSources: master?.dataSources ?? [],
    dataSinks: master?.dataSinks ?? [],
    brand: master?.brand?._id ?? '',
    locale: master?.locale?._id ?? '',
    productLine: master?.productLine?._id ?? '',
    datakind: master?.datakind?._id ?? '',
    component: master?.component ?? '',
  };
}

/** A data source as saved: an empty data model is none, an empty url is left out. */
function sourceOf(source: unknown): unknown {
  if (!source || typeof source !== 'object') return source;
  const { url, dataModel, ...rest } = source as Json;
  return { ...rest, dataModel: dataModel || null, ...(url ? { url } : {}) };
}

/** The save body of the form's value over the shown version: its id, version, save count and folder. */
export function saveBodyOf(value: Json, current: PipelineView) {
  const sources = Array.isArray(value.dataSources) ? value.dataSources.map(sourceOf) : [];
  return {
    ...value,
    dataSources: sources,
    _id: current._id,
    version: current.version,
    sys_version: current.sys_version,
    folder: current.folder,
  };
}
