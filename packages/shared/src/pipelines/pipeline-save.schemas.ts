import { z } from 'zod';
import { idSchema } from '../users/users.schemas.ts';
import { dataSinkSchema, dataSourceSchema } from './pipeline.schemas.ts';

/** The messages of a pipeline save (docs/product.md §8.3), in the order the rules are checked. */
export const PIPELINE_SAVE_MESSAGES = {
  noMaster: 'Country Pipeline must inherit from a master pipeline',
  ownMaster: 'Country Pipeline cannot inherit from itself',
  noComponent: 'Master pipeline must invoke a component',
  saved: 'Pipeline saved',
} as const;

export const PIPELINE_NAME_MAX = 200;

/** An empty choice of a picker or a select: '' reads as none. */
const none = z.literal('').transform(() => null);

/** A document or reference value as a form sends it: its id, the object read (with its `_id`), '' or null for none. */
const referenceSchema = z
  .union([
    none,
    idSchema,
    z
      .object({ _id: idSchema.describe('Id of the document or reference value read.') })
      .loose()
      .transform((o) => o._id),
  ])
  .nullable()
  .optional();

/** POST /pipelines: a new pipeline (no `_id`) or the full body of a draft read at `sys_version`. */
export const pipelineSaveBodySchema = z.object({
  _id: idSchema.optional().describe('The version to save; absent to create a pipeline.'),
  version: z.number().int().positive().optional().describe('The version number it was read at; required with `_id`.'),
  sys_version: z.number().int().optional().describe('The save counter it was read at; required with `_id`.'),
  name: z
    .string({ error: 'The name is required' })
    .trim()
    .min(1, 'The name is required')
    .max(PIPELINE_NAME_MAX, `The name can have at most ${PIPELINE_NAME_MAX} characters`)
    .describe('Name.'),
  folder: idSchema.nullable().optional().describe('Id of the folder holding it; null or absent in the root.'),
  isMaster: z.boolean().default(false).describe('True for a master pipeline, false for a country pipeline.'),
  masterPipeline: referenceSchema.describe("A country pipeline's master (a version id); empty is saved as null."),
  component: referenceSchema.describe('Id of the component version a master invokes.'),
  pipelineSchema: referenceSchema.describe('Id of the data model (schema version) of the pipeline.'),
  dataSources: z.array(dataSourceSchema).max(100).default([]).describe('The inputs, each named by its dataSubKind.'),
  dataSinks: z.array(dataSinkSchema).max(100).default([]).describe('The outputs, each named like a component output port.'),
  brand: referenceSchema.describe('Id of the brand (or the brand read).'),
  locale: referenceSchema.describe('Id of the locale (or the locale read).'),
  productLine: referenceSchema.describe('Id of the product line (or the product line read).'),
  datakind: referenceSchema.describe('Id of the datakind (or the datakind read).'),
  isHidden: z.boolean().optional().describe('Hidden pipelines are left out of the lists of the role user.'),
});
export type PipelineSaveBody = z.infer<typeof pipelineSaveBodySchema>;

/**
 * The first save rule an existing pipeline breaks, in the order and words of docs/product.md §8.3,
 * or null; a new pipeline (no `_id` yet) is not checked.
 */
export function pipelineSaveIssue(
  body: Pick<PipelineSaveBody, '_id' | 'isMaster' | 'masterPipeline' | 'component'>,
): string | null {
  if (!body._id) return null;
  if (!body.isMaster && !body.masterPipeline) return PIPELINE_SAVE_MESSAGES.noMaster;
  if (!body.isMaster && body.masterPipeline === body._id) return PIPELINE_SAVE_MESSAGES.ownMaster;
  if (body.isMaster && !body.component) return PIPELINE_SAVE_MESSAGES.noComponent;
  return null;
}
