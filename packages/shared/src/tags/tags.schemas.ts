import { z } from 'zod';
import { idSchema } from '../users/users.schemas.ts';

/** A badge's kind: group badges scope who an admin manages, project badges open documents. */
export const TAG_TYPES = ['group', 'project'] as const;
export type TagType = (typeof TAG_TYPES)[number];

export const TAG_NAME_MAX = 50;

export const tagSchema = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.enum(TAG_TYPES),
  color: z.string().nullable(),
  isHidden: z.boolean(),
  isMetadata: z.boolean(),
  metadata: z.string().nullable(),
});

/** Creates a badge, or updates the one named by `_id`. */
export const tagSaveBodySchema = z.object({
  _id: idSchema.optional(),
  name: z
    .string()
    .trim()
    .min(1, 'Please input the badge name')
    .max(TAG_NAME_MAX, `The badge name can have at most ${TAG_NAME_MAX} characters`),
  type: z.enum(TAG_TYPES, { error: 'The badge type is group or project' }),
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'The colour must be written #rrggbb')
    .nullable()
    .optional(),
  isHidden: z.boolean().optional(),
  isMetadata: z.boolean().optional(),
  metadata: z.string().max(2000, 'The metadata can have at most 2000 characters').nullable().optional(),
});

export type Tag = z.infer<typeof tagSchema>;
export type TagSaveBody = z.infer<typeof tagSaveBodySchema>;
