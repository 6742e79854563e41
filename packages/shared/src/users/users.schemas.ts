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

export const pipelinePermissionSchema = z.object({
  isActive: z.boolean().describe('Whether the assignment is active: an inactive one keeps the pipeline out of reach.'),
});

/** Where a new account's password link went: mailed to `to`, or written to the server's outbox when no mail server is set. */
export const passwordMailSchema = z.object({
  to: z.string().describe('The address the link was mailed to.'),
  written: z.boolean().describe("True when no mail server is set: the message was written to the server's outbox folder."),
});
export type PasswordMail = z.infer<typeof passwordMailSchema>;

/** A user as the Users screen lists and edits it. */
export const managedUserSchema = z.object({
  _id: z.string().describe('User id.'),
  firstName: z.string().describe('First name.'),
  lastName: z.string().describe('Last name.'),
  userName: z.string().describe('User name, firstname.lastname, made from the names at creation.'),
  email: z.string().describe('E-mail address.'),
  service: z.string().describe('The service (department) the user works in.'),
  role: z.string().describe('The role names joined by a comma.'),
  roles: z.array(z.object({ name: z.string().describe('Role name.') })).describe('The roles, one or two.'),
  isActive: z.boolean().describe('False: the user cannot sign in.'),
  unrestrictedUpload: z.boolean().describe('For the role user: false limits the pipelines to the dealer datakind.'),
  isNoCode: z.boolean().describe('Whether the user may use the no-code app.'),
  tfaEnabled: z.boolean().describe('Whether two-factor sign-in is set up.'),
  lastSeenDate: z.string().nullable().describe('When the user last started a session (ISO date-time); null when never.'),
  admin_tags: z.array(z.string()).describe('Ids of the group badges: who may manage this user.'),
  project_tags: z.array(z.string()).describe('Ids of the project badges: which documents the user may open.'),
  pipelinePermissions: z
    .record(z.string(), pipelinePermissionSchema)
    .describe('For the role user: each assigned pipeline family id and whether the assignment is active.'),
});

/** The user dialog's save: without `_id` it creates, with it it updates. */
export const userSaveBodySchema = z.object({
  _id: idSchema.optional().describe('The user to update; absent to create one.'),
  firstName: z
    .string()
    .max(NAME_MAX * 4, USER_MESSAGES.nameLength)
    .describe('First name, 3 to 25 characters.'),
  lastName: z
    .string()
    .max(NAME_MAX * 4, USER_MESSAGES.nameLength)
    .describe('Last name, 3 to 25 characters.'),
  /** Read-only in the dialog: derived from the names on creation, unchanged afterwards. */
  userName: z
    .string()
    .max(200)
    .optional()
    .describe('Ignored: the user name is made from the names at creation and never changes.'),
  email: z.string().max(254, USER_MESSAGES.emailInvalid).describe('E-mail address; the password link is sent there.'),
  service: z
    .string()
    .max(200, 'The service can have at most 200 characters')
    .optional()
    .describe('The service (department) the user works in.'),
  roles: z
    .array(roleNameSchema)
    .max(10, USER_MESSAGES.tooManyRoles)
    .describe('One role, or admin and manager; only a super-admin gives admin or super-admin.'),
  isActive: z.boolean().optional().describe('False: the user cannot sign in.'),
  unrestrictedUpload: z
    .boolean()
    .optional()
    .describe('For the role user: false limits the pipelines to the dealer datakind. Set from the roles.'),
  isNoCode: z.boolean().optional().describe('Whether the user may use the no-code app.'),
  admin_tags: z
    .array(idSchema)
    .max(200)
    .optional()
    .describe('Ids of the group badges; anyone but a super-admin must give at least one of their own.'),
  project_tags: z.array(idSchema).max(200).optional().describe('Ids of the project badges: which documents the user may open.'),
  /** Pipeline (or pipeline family) id → whether the assignment is active; replaces the user's assignments. */
  pipelinePermissions: z
    .record(idSchema, pipelinePermissionSchema)
    .optional()
    .describe("For the role user: pipeline family id → whether the assignment is active; replaces the user's assignments."),
});

export const toggleUsersBodySchema = z.object({
  ids: z.array(idSchema).min(1, 'Select at least one user').max(1000).describe('The users to change.'),
  enabled: z.boolean().describe('True activates them, false de-activates them (and ends their sessions).'),
});

export const userIdBodySchema = z.object({ _id: idSchema.describe('User id.') });
export const idsQuerySchema = z.object({ ids: idListSchema.describe('Ids joined by commas.') });
export const idQuerySchema = z.object({ id: idSchema.describe('User id.') });
export const usersQuerySchema = z.object({
  search: z
    .string()
    .max(200)
    .optional()
    .describe('Keeps users whose first name, last name, e-mail or role names contain it, ignoring case.'),
});

/** A pipeline in the transfer view: one entry per pipeline family, named by its newest version. */
export const assignablePipelineSchema = z.object({
  _id: z.string().describe('Pipeline family id: an assignment holds for every version.'),
  name: z.string().describe('Name of the newest version.'),
  version: z.number().describe('Number of the newest version.'),
  isMaster: z.boolean().describe('Whether it is a master pipeline.'),
  brand: z.string().nullable().describe('Brand id, or null when unset.'),
  locale: z.string().nullable().describe('Locale id, or null when unset.'),
  productLine: z.string().nullable().describe('Product line id, or null when unset.'),
  datakind: z.string().nullable().describe('Datakind id, or null when unset.'),
});

export const userPipelineSchema = assignablePipelineSchema.extend({
  isActive: z.boolean().describe('Whether the assignment is active.'),
});

export const pipelinesForAnswerSchema = z.object({
  userPipelines: z.array(userPipelineSchema).describe("The pipelines assigned to the user, with each assignment's active flag."),
  availablePipelines: z.array(assignablePipelineSchema).describe('Every pipeline that can be assigned.'),
});

export const idsAnswerSchema = z.object({ ids: z.array(z.string()).describe('Ids of the records concerned.') });

export type ManagedUser = z.infer<typeof managedUserSchema>;
export type UserSaveBody = z.infer<typeof userSaveBodySchema>;
export type ToggleUsersBody = z.infer<typeof toggleUsersBodySchema>;
export type AssignablePipeline = z.infer<typeof assignablePipelineSchema>;
export type UserPipeline = z.infer<typeof userPipelineSchema>;
export type PipelinesForAnswer = z.infer<typeof pipelinesForAnswerSchema>;

/** POST /users answers the user saved and, for a new one, where its password link went. */
export const savedUserSchema = managedUserSchema.extend({
  passwordMail: passwordMailSchema.optional().describe("A new user's password link: mailed, or written to the outbox."),
});
