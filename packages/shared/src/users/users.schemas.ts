import { z } from 'zod';
import { ROLES } from '../auth/roles.ts';
import { NAME_MAX, USER_MESSAGES } from './user-rules.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for the id format the server gives its records. */
export function isId(value: string): boolean {
  return UUID.test(value);
}

export const idSchema = z.string().regex(UUID, 'Invalid id');

/** A comma-joined list of ids, as DELETE calls carry them in the query. */
export const idListSchema = z
  .string()
  .min(1, 'ids is required')
  .max(40_000)
  .refine((v) => v.split(',').every((id) => isId(id.trim())), 'ids must be a comma-separated list of valid ids');

/** Splits a validated comma-joined id list. */
export function splitIds(value: string): string[] {
  return [...new Set(value.split(',').map((id) => id.trim()))];
}

export const roleNameSchema = z.enum(ROLES, { error: 'Unknown role: use user, manager, admin or super-admin' });

export const pipelinePermissionSchema = z.object({ isActive: z.boolean() });

/** A user as the Users screen lists and edits it. */
export const managedUserSchema = z.object({
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  userName: z.string(),
  email: z.string(),
  service: z.string(),
  role: z.string(),
  roles: z.array(z.object({ name: z.string() })),
  isActive: z.boolean(),
  unrestrictedUpload: z.boolean(),
  isNoCode: z.boolean(),
  tfaEnabled: z.boolean(),
  lastSeenDate: z.string().nullable(),
  admin_tags: z.array(z.string()),
  project_tags: z.array(z.string()),
  pipelinePermissions: z.record(z.string(), pipelinePermissionSchema),
});

/** The user dialog's save: without `_id` it creates, with it it updates. */
export const userSaveBodySchema = z.object({
  _id: idSchema.optional(),
  firstName: z.string().max(NAME_MAX * 4, USER_MESSAGES.nameLength),
  lastName: z.string().max(NAME_MAX * 4, USER_MESSAGES.nameLength),
  /** Read-only in the dialog: derived from the names on creation, unchanged afterwards. */
  userName: z.string().max(200).optional(),
  email: z.string().max(254, USER_MESSAGES.emailInvalid),
  service: z.string().max(200, 'The service can have at most 200 characters').optional(),
  roles: z.array(roleNameSchema).max(10, USER_MESSAGES.tooManyRoles),
  isActive: z.boolean().optional(),
  unrestrictedUpload: z.boolean().optional(),
  isNoCode: z.boolean().optional(),
  admin_tags: z.array(idSchema).max(200).optional(),
  project_tags: z.array(idSchema).max(200).optional(),
  /** Pipeline (or pipeline family) id → whether the assignment is active; replaces the user's assignments. */
  pipelinePermissions: z.record(idSchema, pipelinePermissionSchema).optional(),
});

export const toggleUsersBodySchema = z.object({
  ids: z.array(idSchema).min(1, 'Select at least one user').max(1000),
  enabled: z.boolean(),
});

export const userIdBodySchema = z.object({ _id: idSchema });
export const idsQuerySchema = z.object({ ids: idListSchema });
export const idQuerySchema = z.object({ id: idSchema });
export const usersQuerySchema = z.object({ search: z.string().max(200).optional() });

/** A pipeline in the transfer view: one entry per pipeline family, named by its newest version. */
export const assignablePipelineSchema = z.object({
  _id: z.string(),
  name: z.string(),
  version: z.number(),
  isMaster: z.boolean(),
  brand: z.string().nullable(),
  locale: z.string().nullable(),
  productLine: z.string().nullable(),
  datakind: z.string().nullable(),
});

export const userPipelineSchema = assignablePipelineSchema.extend({ isActive: z.boolean() });

export const pipelinesForAnswerSchema = z.object({
  userPipelines: z.array(userPipelineSchema),
  availablePipelines: z.array(assignablePipelineSchema),
});

export const idsAnswerSchema = z.object({ ids: z.array(z.string()) });

export type ManagedUser = z.infer<typeof managedUserSchema>;
export type UserSaveBody = z.infer<typeof userSaveBodySchema>;
export type ToggleUsersBody = z.infer<typeof toggleUsersBodySchema>;
export type AssignablePipeline = z.infer<typeof assignablePipelineSchema>;
export type UserPipeline = z.infer<typeof userPipelineSchema>;
export type PipelinesForAnswer = z.infer<typeof pipelinesForAnswerSchema>;
