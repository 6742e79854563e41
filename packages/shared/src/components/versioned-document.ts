import { z } from 'zod';

/** Read and write badge expressions of a document: groups of tag ids. */
export const documentTagsSchema = z.object({
  read: z.array(z.array(z.string())),
  write: z.array(z.array(z.string())),
});

/**
 * The fields every versioned document answers (schemas, components, SDK functions, pipelines):
 * DESIGN §4 and §7, in the spec's names.
 */
export const versionedDocumentFields = {
  _id: z.string(),
  familyId: z.string(),
  version: z.number(),
  vLocked: z.boolean(),
  vParents: z.array(z.string()),
  read_only: z.boolean(),
  /** The inverse of read_only (spec 001 §3). */
  write_access: z.boolean(),
  sys_version: z.number(),
  folder: z.string().nullable(),
  tags: documentTagsSchema,
  metadataTags: z.array(z.string()),
  createDate: z.string(),
  lastUpdateDate: z.string(),
};

export type DocumentTags = z.infer<typeof documentTagsSchema>;
