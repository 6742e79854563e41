import { z } from 'zod';
import { documentTagsSchema } from '../folders/folders.schemas.ts';
import { idSchema } from '../users/users.schemas.ts';
import { VERSION_KINDS } from '../versions/versions.schemas.ts';

/** The most groups an expression holds, and the most badges in a group or in the metadata badges. */
export const DOCUMENT_TAG_GROUPS_MAX = 50;
export const DOCUMENT_TAGS_PER_GROUP_MAX = 50;
export const METADATA_TAGS_MAX = 200;

/** What a document's badges may be set on: a folder, or a document of one of the versioned kinds. */
export const DOCUMENT_TAG_TARGETS = ['folder', ...VERSION_KINDS] as const;
export type DocumentTagTarget = (typeof DOCUMENT_TAG_TARGETS)[number];

/** The messages of the badges call. */
export const DOCUMENT_TAG_MESSAGES = {
  notFound: 'Document not found',
  unknown: (ids: readonly string[]) => `These badges do not exist: ${ids.join(', ')}.`,
  notProject: (names: readonly string[]) => `Only project badges open documents, not the group badges ${names.join(', ')}.`,
  notAllowed: 'You are not allowed to change the badges of this document.',
} as const;

const groupsSchema = (what: string) =>
  z
    .array(z.array(idSchema).max(DOCUMENT_TAGS_PER_GROUP_MAX, `A group can hold at most ${DOCUMENT_TAGS_PER_GROUP_MAX} badges`))
    .max(DOCUMENT_TAG_GROUPS_MAX, `An expression can hold at most ${DOCUMENT_TAG_GROUPS_MAX} groups`)
    .describe(`${what} badges: groups of project badge ids; the groups are alternatives, every badge of one group is needed.`);

/** POST /tags/update-document-tags: sets the read, write and metadata badges of a folder or document. */
export const updateDocumentTagsBodySchema = z.object({
  id: idSchema.describe('Id of the folder, or of any version of the document.'),
  tags: z
    .object({ read: groupsSchema('Read'), write: groupsSchema('Write') })
    .describe('The read and write badge expressions; empty lists open the document to everyone.'),
  metadataTags: z
    .array(idSchema)
    .max(METADATA_TAGS_MAX, `At most ${METADATA_TAGS_MAX} metadata badges`)
    .default([])
    .describe('Ids of the metadata badges (used on components).'),
  type: z
    .enum(DOCUMENT_TAG_TARGETS, { error: 'The type is folder, pipeline, schema, component or sdk' })
    .describe('folder, or the kind of the document: pipeline, schema, component or sdk.'),
});
export type UpdateDocumentTagsBody = z.infer<typeof updateDocumentTagsBodySchema>;

/** The badges as stored after the call. */
export const documentTagsAnswerSchema = z.object({
  id: z.string().describe('Id of the folder or document as given.'),
  type: z.enum(DOCUMENT_TAG_TARGETS).describe('folder, or the kind of the document.'),
  tags: documentTagsSchema.describe('The read and write badge expressions as stored.'),
  metadataTags: z.array(z.string()).describe('Ids of the metadata badges.'),
  versions: z.number().int().describe('How many versions of the document took the badges (0 for a folder).'),
});
export type DocumentTagsAnswer = z.infer<typeof documentTagsAnswerSchema>;
