import { z } from 'zod';
import { brandSchema, datakindSchema, localeSchema, productLineSchema } from '../reference/reference.schemas.ts';

export const CONNECTOR_TYPES = ['manual', 'real-time', 'endpoint', 'listener'] as const;
export const CONTENT_TYPES = ['csv', 'excel', 'xml', 'json'] as const;
export const SINK_FORMATS = ['CSV', 'JSON', 'XLSX'] as const;

/** One input of a pipeline, named by its dataSubKind. */
export const dataSourceSchema = z.object({
  dataSubKind: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, - and _ only'),
  connectorType: z.enum(CONNECTOR_TYPES),
  dataFromMaster: z.boolean().default(false),
  contentType: z.enum(CONTENT_TYPES).default('csv'),
  /** The data model (schema version id) rows of this source must satisfy. */
  dataModel: z.string().nullable().default(null),
  /** Where a real-time source is fetched from. */
  url: z.string().url().max(2000).optional(),
});

/** One output of a pipeline, named like the component output port it takes. */
export const dataSinkSchema = z.object({
  name: z.string().min(1).max(64),
  format: z.enum(SINK_FORMATS).default('CSV'),
  /** Optional data-store table the rows are upserted into, by their key fields. */
  target: z
    .object({
      table: z
        .string()
        .min(1)
        .max(63)
        .regex(/^[a-z][a-z0-9_]*$/, 'Lower-case letters, digits and _ only'),
      keyFields: z.array(z.string().min(1).max(128)).min(1).max(16),
    })
    .nullable()
    .default(null),
});

const refSchema = z.object({ _id: z.string(), name: z.string() });
const localeRefSchema = z.object({ _id: z.string(), language: z.string(), country: z.string(), name: z.string() });

/** A pipeline as the import screens read it (spec 000 §3). */
export const pipelineViewSchema = z.object({
  _id: z.string(),
  familyId: z.string(),
  name: z.string(),
  version: z.number(),
  vLocked: z.boolean(),
  read_only: z.boolean(),
  isMaster: z.boolean(),
  masterPipeline: z.string().nullable(),
  component: z.string().nullable(),
  brand: refSchema.nullable(),
  locale: localeRefSchema.nullable(),
  productLine: refSchema.nullable(),
  datakind: z.object({ _id: z.string(), name: z.string(), isDealer: z.boolean() }).nullable(),
  isHidden: z.boolean(),
  dataSources: z.array(dataSourceSchema),
  dataSinks: z.array(dataSinkSchema),
  folder: z.string().nullable(),
  tags: z.object({ read: z.array(z.array(z.string())), write: z.array(z.array(z.string())) }),
});

export type DataSource = z.infer<typeof dataSourceSchema>;
export type DataSink = z.infer<typeof dataSinkSchema>;
export type PipelineView = z.infer<typeof pipelineViewSchema>;

/** The answer of GET /users/pipelines: the filter lists and the pipelines the caller may use. */
export const userPipelinesSchema = z.object({
  staticTypes: z.object({
    locales: z.array(localeSchema),
    brands: z.array(brandSchema),
    datakinds: z.array(datakindSchema),
    productLines: z.array(productLineSchema),
  }),
  pipelines: z.array(pipelineViewSchema),
});
export type UserPipelines = z.infer<typeof userPipelinesSchema>;

/** Masters first, then the others, each group by name ignoring case (spec 000 §2.6). */
export function sortPipelines<T extends { isMaster: boolean; name: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => {
    if (a.isMaster !== b.isMaster) return a.isMaster ? -1 : 1;
    return a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  });
}

/** The fields missing for a pipeline to run, in the spec's words and order. */
export function missingRunFields(p: Pick<PipelineView, 'brand' | 'datakind' | 'productLine' | 'locale'>): string[] {
  const missing: string[] = [];
  if (!p.brand) missing.push('Brand');
  if (!p.datakind) missing.push('Data Kind');
  if (!p.productLine) missing.push('Product Line');
  if (!p.locale) missing.push('Locale');
  return missing;
}
