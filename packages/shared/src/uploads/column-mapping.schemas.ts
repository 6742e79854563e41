import { z } from 'zod';
import { uuidSchema } from './upload.schemas.ts';

/** Columns a mapping may list: as many as a file may have (the parse limits' default). */
export const MAX_MAPPED_COLUMNS = 1000;

export const columnChoiceSchema = z.object({
  column: z.string().min(1).max(1000).describe("A column's name as the file's header writes it."),
  field: z.string().min(1).max(200).nullable().describe('The data model field it goes to; null: the column is ignored.'),
});

const sourceFields = {
  pipelineId: uuidSchema.describe('Pipeline id.'),
  dataSubKind: z.string().min(1).max(64).describe('The data source.'),
};

export const columnMappingsQuerySchema = z.object(sourceFields);

export const columnMappingBodySchema = z.object({
  ...sourceFields,
  columns: z
    .array(columnChoiceSchema)
    .min(1)
    .max(MAX_MAPPED_COLUMNS)
    .describe("Every column of the file's header, each with its field or null (ignored)."),
});
export type ColumnMappingBody = z.infer<typeof columnMappingBodySchema>;

/** A stored mapping of a data source, for one header. */
export const columnMappingViewSchema = z.object({
  signature: z.string().describe("The header's signature: its normalised column names, sorted, joined by U+001F."),
  columns: z.array(columnChoiceSchema).describe('Each column of that header with its field, or null (ignored).'),
  updatedAt: z.string().describe('When it was last stored (ISO date-time).'),
});
export type ColumnMappingView = z.infer<typeof columnMappingViewSchema>;

/** A data model field as the column matching offers it. */
export const matchFieldSchema = z.object({
  name: z.string().describe('The field (a property of the data model).'),
  title: z.string().optional().describe("The field's title, when it has one."),
  aliases: z.array(z.string()).describe('Its alternate names (x-aliases).'),
  required: z.boolean().describe('Whether the data model requires it.'),
});

/** What the wizard matches a file's columns with: the data source's fields and its stored mappings. */
export const sourceMappingsSchema = z.object({
  fields: z.array(matchFieldSchema).describe("The data model's fields; empty when the data source has no data model."),
  mappings: z.array(columnMappingViewSchema).describe('The mappings stored for the headers met, newest first.'),
});
export type SourceMappings = z.infer<typeof sourceMappingsSchema>;

/** Values a file's head shows per column. */
export const HEAD_SAMPLES = 3;

/** A chosen file's header and first values, as the wizard's mapping dialog shows them (POST /uploads/file-head). */
export const fileHeadSchema = z.object({
  columns: z.array(z.string()).describe("The header's column names as the check reads them: trimmed, nameless columns left out."),
  samples: z
    .array(z.array(z.string()))
    .describe(
      'Per column, in the same order, its first non-empty values (up to 3) as the check sees them: a date as ISO text, a number as the sheet shows it.',
    ),
});
export type FileHead = z.infer<typeof fileHeadSchema>;
