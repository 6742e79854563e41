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
    .regex(/^[A-Za-z0-9_-]+$/, 'Use letters, digits, - and _ only')
    .describe(
      'Name of the source, unique in the pipeline; files are uploaded under it and the component reads ctx.input[dataSubKind].',
    ),
  connectorType: z
    .enum(CONNECTOR_TYPES)
    .describe('manual: uploaded files; real-time: fetched by the server from url; endpoint or listener: pushed from outside.'),
  dataFromMaster: z.boolean().default(false).describe("For a country pipeline: the source reads the master's uploads."),
  contentType: z.enum(CONTENT_TYPES).default('csv').describe('The file format group the source accepts.'),
  /** The data model (schema version id) rows of this source must satisfy. */
  dataModel: z
    .string()
    .nullable()
    .default(null)
    .describe('Id of the data model (schema version) every row must satisfy; null checks nothing.'),
  /** Where a real-time source is fetched from. */
  url: z.string().url().max(2000).optional().describe('Where a real-time source is fetched from.'),
});

/** One output of a pipeline, named like the component output port it takes. */
export const dataSinkSchema = z.object({
  name: z.string().min(1).max(64).describe('Name of the component output port whose rows the sink takes.'),
  format: z.enum(SINK_FORMATS).default('CSV').describe('Format of the output file.'),
  /** Optional data-store table the rows are upserted into, by their key fields. */
  target: z
    .object({
      table: z
        .string()
        .min(1)
        .max(63)
        .regex(/^[a-z][a-z0-9_]*$/, 'Lower-case letters, digits and _ only')
        .describe('The data-store table.'),
      keyFields: z
        .array(z.string().min(1).max(128))
        .min(1)
        .max(16)
        .describe('The fields that identify a row: a row with the same values replaces the stored one.'),
    })
    .nullable()
    .default(null)
    .describe('Optional data-store table the rows are also upserted into; null writes the file only.'),
});

const refSchema = z.object({ _id: z.string().describe('Id.'), name: z.string().describe('Name.') });

/** A pipeline as the import screens read it (docs/product.md §8.1). */
export const pipelineViewSchema = z.object({
  _id: z.string().describe('Id of this pipeline version.'),
  familyId: z.string().describe('Id shared by every version of the pipeline.'),
  name: z.string().describe('Name.'),
  version: z.number().describe('Version number, from 1.'),
  vLocked: z.boolean().describe('True for a locked (production) version, false for a draft.'),
  read_only: z.boolean().describe('True when the pipeline may not be changed.'),
  isMaster: z.boolean().describe('True for a master pipeline, false for a country pipeline.'),
  masterPipeline: z.string().nullable().describe("A country pipeline's master (a version id); null for a master."),
  component: z.string().nullable().describe('Id of the component version the pipeline runs; null when none.'),
  pipelineSchema: z.string().nullable().describe('Id of the data model (schema version) of the pipeline; null when none.'),
  sys_version: z.number().describe('The save counter: a save must send the one it read.'),
  brand: refSchema.nullable().describe('Brand; null when unset (the pipeline cannot run).'),
  locale: localeSchema.nullable().describe('Locale; null when unset (the pipeline cannot run).'),
  productLine: refSchema.nullable().describe('Product line; null when unset (the pipeline cannot run).'),
  datakind: datakindSchema.nullable().describe('Datakind; null when unset (the pipeline cannot run).'),
  isHidden: z.boolean().describe('Hidden pipelines are left out of the lists of the role user.'),
  dataSources: z.array(dataSourceSchema).describe('The inputs, each named by its dataSubKind.'),
  dataSinks: z.array(dataSinkSchema).describe('The outputs, each named like a component output port.'),
  folder: z.string().nullable().describe('Id of the folder holding the pipeline; null at the top.'),
  tags: z
    .object({
      read: z.array(z.array(z.string())).describe('Read badges: groups of badge ids, any one group whole opens it.'),
      write: z.array(z.array(z.string())).describe('Write badges, the same way.'),
    })
    .describe('The badges that open the pipeline; empty lists leave it open.'),
});

export type DataSource = z.infer<typeof dataSourceSchema>;
export type DataSink = z.infer<typeof dataSinkSchema>;
export type PipelineView = z.infer<typeof pipelineViewSchema>;

/** The answer of GET /users/pipelines: the filter lists and the pipelines the caller may use. */
export const userPipelinesSchema = z.object({
  staticTypes: z
    .object({
      locales: z.array(localeSchema).describe('Every locale.'),
      brands: z.array(brandSchema).describe('Every brand.'),
      datakinds: z.array(datakindSchema).describe('Every datakind.'),
      productLines: z.array(productLineSchema).describe('Every product line.'),
    })
    .describe('The reference lists the pipelines are filtered by.'),
  pipelines: z.array(pipelineViewSchema).describe('The pipelines the caller may use.'),
});
export type UserPipelines = z.infer<typeof userPipelinesSchema>;

/** Masters first, then the others, each group by name ignoring case (docs/product.md §8.4). */
export function sortPipelines<T extends { isMaster: boolean; name: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => {
    if (a.isMaster !== b.isMaster) return a.isMaster ? -1 : 1;
    return a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
  });
}

/** The fields missing for a pipeline to run, in the words and order of docs/product.md §8.5. */
export function missingRunFields(p: Pick<PipelineView, 'brand' | 'datakind' | 'productLine' | 'locale'>): string[] {
  const missing: string[] = [];
  if (!p.brand) missing.push('Brand');
  if (!p.datakind) missing.push('Data Kind');
  if (!p.productLine) missing.push('Product Line');
  if (!p.locale) missing.push('Locale');
  return missing;
}
