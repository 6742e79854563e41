import { z } from 'zod';
import { idsQuerySchema } from '../components/components.schemas.ts';
import { versionedDocumentFields } from '../components/versioned-document.ts';
import { idSchema } from '../users/users.schemas.ts';

/** A data model (schema document) version (docs/product.md §18.2). */
export const schemaDocumentSchema = z.object({
  ...versionedDocumentFields,
  name: z.string().describe('Name.'),
  jsonSchema: z.record(z.string(), z.unknown()).describe('The JSON schema rows or port values must satisfy.'),
});

export type SchemaDocument = z.infer<typeof schemaDocumentSchema>;

/**
 * Limits every server holds a data model to; `depth` is the ceiling of the server's own setting
 * (SCHEMA_MAX_DEPTH, 64 by default), which refuses less deep models with a message naming it.
 */
export const SCHEMA_LIMITS = { name: 200, depth: 1000 } as const;

/** How deeply a JSON value nests (a value that is no object or array: 0), counted up to `limit` + 1. */
export function nestingDepth(value: unknown, limit: number = SCHEMA_LIMITS.depth): number {
  let depth = 0;
  let level: unknown[] = [value];
  for (;;) {
    const containers = level.filter((v): v is object => v !== null && typeof v === 'object');
    if (containers.length === 0 || depth > limit) return depth;
    depth += 1;
    level = containers.flatMap((v) => Object.values(v));
  }
}

/**
 * POST /schemas: a new data model (name, folder, jsonSchema; it starts at version 1) or a saved
 * draft's full body, with the `_id`, `version` and `sys_version` it was read at.
 */
export const schemaSaveBodySchema = z.object({
  _id: idSchema.optional().describe('The version to save; absent to create a data model.'),
  name: z
    .string({ error: 'The name is required' })
    .trim()
    .min(1, 'The name is required')
    .max(SCHEMA_LIMITS.name, `The name can have at most ${SCHEMA_LIMITS.name} characters`)
    .describe('Name, unique among data models (other versions of the same one share it).'),
  folder: idSchema.nullable().optional().describe('Id of the folder holding it; null or absent at the top.'),
  version: z.number().int().positive().optional().describe('The version number it was read at; required with `_id`.'),
  sys_version: z.number().int().optional().describe('The save counter it was read at; required with `_id`.'),
  jsonSchema: z
    .record(z.string(), z.unknown())
    .refine((v) => nestingDepth(v) <= SCHEMA_LIMITS.depth, `The data model nests deeper than ${SCHEMA_LIMITS.depth} levels`)
    .describe('The JSON schema.'),
});
export type SchemaSaveBody = z.infer<typeof schemaSaveBodySchema>;

/** GET /schemas/list: one entry per version, for pickers. */
export const schemaListEntrySchema = z.object({
  _id: z.string().describe('Id of the version.'),
  familyId: z.string().describe('Id shared by every version of the data model.'),
  name: z.string().describe('Name.'),
  version: z.number().describe('Version number.'),
  vLocked: z.boolean().describe('True when locked (production).'),
  folder: z.string().nullable().describe('Id of the folder holding it; null at the top.'),
});
export type SchemaListEntry = z.infer<typeof schemaListEntrySchema>;

export const schemaByNameQuerySchema = z.object({
  name: z.string().min(1).max(SCHEMA_LIMITS.name).describe('Name of the data model.'),
});

/** GET /schemas/byname: the version a name reads (the newest locked one, else the newest). */
export const schemaByNameSchema = z.object({
  _id: z.string().describe('Id of the version read.'),
  name: z.string().describe('Name.'),
  version: z.number().describe('Version number.'),
  jsonSchema: z.record(z.string(), z.unknown()).describe('The JSON schema.'),
});
export type SchemaByName = z.infer<typeof schemaByNameSchema>;

/** GET /schemas/find: any text, so that an unknown id reads 'Cannot load schema {id} from server'. */
export const schemaFindQuerySchema = z.object({
  id: z.string().min(1).max(100).describe('Id of the data model version.'),
});

export const schemaIdsQuerySchema = z.object({
  ids: idsQuerySchema.shape.ids.describe('Data model version ids, joined by commas or repeated (at most 1000).'),
});

export const schemaDeleteQuerySchema = z.object({ id: idSchema.describe('Id of the draft version to delete.') });

export const cacheClearAnswerSchema = z.object({
  cleared: z.number().describe('How many data models the cache of this server held.'),
});

/** POST /schemas/generate: one data model per example file sent, in their order (the editor uses the first). */
export const schemaGenerateAnswerSchema = z
  .array(z.record(z.string(), z.unknown()).describe('The data model inferred from one example file.'))
  .describe('One data model per file.');

/** What names a stored data model version's content: any save changes it (kept checks and compiled validators are keyed by it). */
export const schemaContentKey = (d: Pick<SchemaDocument, '_id' | 'sys_version' | 'lastUpdateDate'>): string =>
  `${d._id} ${d.sys_version} ${d.lastUpdateDate}`;
