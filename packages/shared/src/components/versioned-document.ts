import { z } from 'zod';

/** Read and write badge expressions of a document: groups of tag ids. */
export const documentTagsSchema = z.object({
  read: z
    .array(z.array(z.string()))
    .describe('Read badges: groups of badge ids; a user holding every badge of one group may read. Empty: open to all.'),
  write: z.array(z.array(z.string())).describe('Write badges, the same way.'),
});

/**
 * The fields every versioned document answers (schemas, components, SDK functions, pipelines):
 * docs/product.md §18.1, in the product's names.
 */
export const versionedDocumentFields = {
  _id: z.string().describe('Id of this version.'),
  familyId: z.string().describe('Id shared by every version of the document.'),
  version: z.number().describe('Version number, from 1.'),
  vLocked: z.boolean().describe('True for a locked (production, read-only) version, false for a draft.'),
  vParents: z.array(z.string()).describe('Ids of the versions this one was made from.'),
  read_only: z.boolean().describe('True when the document may not be changed.'),
  write_access: z
    .boolean()
    .describe(
      'Whether the caller may change the document: the inverse of read_only, and false on a system data model for anyone but a super-admin.',
    ),
  sys_version: z.number().describe('Grows with every save; send it back when saving, so a save over a newer one is refused.'),
  folder: z.string().nullable().describe('Id of the folder holding the document; null at the top.'),
  tags: documentTagsSchema.describe('The badges that open the document.'),
  metadataTags: z.array(z.string()).describe('Ids of its metadata badges.'),
  createDate: z.string().describe('When the version was made (ISO date-time).'),
  lastUpdateDate: z.string().describe('When it was last saved (ISO date-time).'),
};

export type DocumentTags = z.infer<typeof documentTagsSchema>;
