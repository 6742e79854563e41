import { z } from 'zod';
import type { Role } from '../auth/roles.ts';
import { idSchema } from '../users/users.schemas.ts';
import { VERSION_KINDS, type VersionKind } from '../versions/versions.schemas.ts';

/** The kinds of documents folders hold, one tree each (docs/product.md §18.3). */
export const folderKindSchema = z.enum(VERSION_KINDS).describe('What the folder holds: pipeline, schema, component or sdk.');
export type FolderKind = VersionKind;

/**
 * Who reaches each kind's tree, beyond the route's own roles: the screens that show it. The
 * pipeline tree is also the testing view's (every role); SDK functions are the super-admin's.
 */
export const FOLDER_KIND_ROLES: Readonly<Record<FolderKind, readonly Role[]>> = {
  pipeline: ['user', 'manager', 'admin', 'super-admin'],
  schema: ['manager', 'super-admin'],
  component: ['manager', 'super-admin'],
  sdk: ['super-admin'],
};

/** The longest folder name the server keeps. */
export const FOLDER_NAME_MAX = 200;

/** The messages of the folder calls. */
export const FOLDER_MESSAGES = {
  notFound: 'Folder not found',
  rootRename: 'A root folder cannot be renamed.',
  rootMove: 'A root folder cannot be moved.',
  rootDelete: 'A root folder cannot be deleted.',
  intoItself: 'A folder cannot be moved into itself or one of its folders.',
  otherKind: 'The destination folder holds another kind of document.',
  holdsFolders: 'This folder holds folders.',
  holdsDocuments: 'This folder holds documents.',
  holdsPipelines: 'This folder holds pipelines; delete them first.',
  notAllowed: 'You are not allowed to change this folder.',
} as const;

const nameSchema = z
  .string({ error: 'The name is required' })
  .trim()
  .min(1, 'The name is required')
  .max(FOLDER_NAME_MAX, `The name can have at most ${FOLDER_NAME_MAX} characters`);

/** Read and write badge expressions: each a list of groups, each group a list of badge ids. */
export const documentTagsSchema = z.object({
  read: z.array(z.array(z.string())).describe('Read badges: groups of badge ids; one whole group suffices.'),
  write: z.array(z.array(z.string())).describe('Write badges: groups of badge ids; one whole group suffices.'),
});

/** A version listed on a document node. */
export const treeVersionSchema = z.object({
  _id: z.string().describe('Id of the version.'),
  version: z.number().int().describe('Version number.'),
  vLocked: z.boolean().describe('True for a production (locked) version.'),
});

/** A node of an explorer tree: a folder, or a document (leaf) with its versions (docs/product.md §18.3). */
export type TreeNode = {
  value: string;
  label: string;
  type: 'folder' | 'leaf';
  children: TreeNode[];
  versions: z.infer<typeof treeVersionSchema>[];
  tags: z.infer<typeof documentTagsSchema>;
  metadataTags: string[];
  /** Whether the caller may change it (the server always says; trees made by hand may leave it out). */
  write_access?: boolean;
};

/**
 * A node as the API description publishes it: its children are nodes of the same shape, described
 * one level deep (a recursive schema would need a shared component the description does not keep).
 */
export const treeNodeSchema = z.object({
  value: z.string().describe('Id of the folder, or of the newest version of the document.'),
  label: z.string().describe('Folder or document name.'),
  type: z.enum(['folder', 'leaf']).describe('folder, or leaf for a document.'),
  children: z
    .array(z.record(z.string(), z.unknown()))
    .describe('Nodes of this same shape: folders first, then documents, each by name ignoring case.'),
  versions: z.array(treeVersionSchema).describe("A document's versions by number; empty for a folder."),
  tags: documentTagsSchema.describe('Its own read and write badges.'),
  metadataTags: z.array(z.string()).describe('Its metadata badge ids.'),
  write_access: z
    .boolean()
    .optional()
    .describe(
      "Whether the caller may change it (always sent): write through its badges and every folder's above it; false for a read-only document (and, with the locked-only rule, one with a locked version).",
    ),
});

export const folderSchema = z.object({
  id: z.string().describe('Id of the folder.'),
  name: z.string().describe('Its name, unique under its parent.'),
  kind: folderKindSchema,
  parent: z.string().nullable().describe('Id of the folder above it; null for the root of its kind.'),
});
export type Folder = z.infer<typeof folderSchema>;

export const folderTreeQuerySchema = z.object({ kind: folderKindSchema });

export const folderCreateBodySchema = z.object({
  name: nameSchema.describe('Name; a name already taken under the parent gets a number in brackets.'),
  kind: folderKindSchema,
  parent: idSchema.nullish().describe('Id of the folder to create it in; absent for the root of the kind.'),
});

export const folderDeleteBodySchema = z.object({
  id: idSchema.describe('Id of the folder to delete.'),
  kind: folderKindSchema,
  withFolders: z.boolean().default(false).describe('Also delete the folders below it (else refused while it holds any).'),
  withDocuments: z
    .boolean()
    .default(false)
    .describe('Also delete the documents in it and below it (else refused while it holds any).'),
});

export const folderRenameBodySchema = z.object({
  id: idSchema.describe('Id of the folder.'),
  name: nameSchema.describe('New name; a name already taken under the parent gets a number in brackets.'),
});

/** POST /folders/reparent and POST /{kind}/reparent: move an item into a folder. */
export const reparentBodySchema = z.object({
  id: idSchema.describe('Id of the folder, or of any version of the document, to move.'),
  parentId: idSchema.describe('Id of the destination folder.'),
});

export const folderDeleteAnswerSchema = z.object({
  folders: z.array(z.string()).describe('Ids of the folders deleted.'),
  documents: z.number().int().describe('How many document versions were deleted.'),
});

export const documentMoveAnswerSchema = z.object({
  _id: z.string().describe('Id of the version asked.'),
  folder: z.string().describe('Id of the folder the whole document (every version) is now in.'),
});

/** 'Name', or 'Name (n)' with the smallest n ≥ 1 that no sibling takes, when 'Name' is taken. */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 1; ; n += 1) {
    const candidate = `${name} (${n})`;
    if (!taken.has(candidate)) return candidate;
  }
}
