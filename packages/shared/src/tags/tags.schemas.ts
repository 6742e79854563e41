import { z } from 'zod';
import { idSchema } from '../users/users.schemas.ts';

/** A badge's kind: group badges scope who an admin manages, project badges open documents. */
export const TAG_TYPES = ['group', 'project'] as const;
export type TagType = (typeof TAG_TYPES)[number];

export const TAG_NAME_MAX = 50;

export const tagSchema = z.object({
  _id: z.string().describe('Badge id.'),
  name: z.string().describe('Name.'),
  type: z.enum(TAG_TYPES).describe('group: scopes which users an admin manages; project: opens documents.'),
  color: z.string().nullable().describe('Colour of a project badge, #rrggbb; null when none.'),
  isHidden: z.boolean().describe('Hidden badges are left out of the badge selectors.'),
  isMetadata: z.boolean().describe('True for a metadata badge (used on components).'),
  metadata: z.string().nullable().describe('The text a metadata badge carries; null when none.'),
});

/** Creates a badge, or updates the one named by `_id`. */
export const tagSaveBodySchema = z.object({
  _id: idSchema.optional().describe('The badge to update; absent to create one.'),
  name: z
    .string()
    .trim()
    .min(1, 'Please input the badge name')
    .max(TAG_NAME_MAX, `The badge name can have at most ${TAG_NAME_MAX} characters`)
    .describe('Name, 1 to 50 characters, unique among the badges of its type (ignoring case).'),
  type: z
    .enum(TAG_TYPES, { error: 'The badge type is group or project' })
    .describe('group: scopes which users an admin manages; project: opens documents.'),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'The colour must be written #rrggbb')
    .nullable()
    .optional()
    .describe('Colour of a project badge, #rrggbb.'),
  isHidden: z.boolean().optional().describe('Leaves the badge out of the badge selectors.'),
  isMetadata: z.boolean().optional().describe('Makes it a metadata badge (used on components).'),
  metadata: z
    .string()
    .max(2000, 'The metadata can have at most 2000 characters')
    .nullable()
    .optional()
    .describe('The text a metadata badge carries.'),
});

export type Tag = z.infer<typeof tagSchema>;
export type TagSaveBody = z.infer<typeof tagSaveBodySchema>;
