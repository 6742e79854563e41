import type { Role } from '@gdb/shared/auth/roles';
import { isRole } from '@gdb/shared/auth/roles';
import { deriveUserName, roleRuleError, USER_MESSAGES, userFieldIssues } from '@gdb/shared/users/user-rules';
import { isSuperAdmin, type ScopeActor } from '@gdb/shared/users/user-scope';
import type { ManagedUser, PasswordMail, UserSaveBody } from '@gdb/shared/users/users.schemas';
import { wasShown } from '../../ground/request/failure.ts';
import { ApiError } from '../../ground/request/request.ts';

/** The fields of the user dialog's form. */
/** A new user's success message: the spec's words, then where the password link went. */
export function createdMessage(mail: PasswordMail | undefined): string {
  if (!mail) return USER_MESSAGES.created;
  const where = mail.written
    ? `No mail server is set: the mail with the link to set a password, for ${mail.to}, was written to the server's outbox folder.`
    : `A mail with a link to set a password was sent to ${mail.to}.`;
  return `${USER_MESSAGES.created} ${where}`;
}

export interface UserFormValues {
  firstName: string;
  lastName: string;
  userName: string;
  email: string;
  service: string;
  roles: Role[];
  isActive: boolean;
  isNoCode: boolean;
  /** 'Only dealers upload': the inverse of unrestrictedUpload. */
  onlyDealers: boolean;
}

/** Pipeline (family) id → whether the assignment is active. */
export type Assignments = Record<string, { isActive: boolean }>;

/** What the dialog edits beside the form: badges and pipeline assignments. */
export interface UserExtras {
  admin_tags: string[];
  project_tags: string[];
  pipelinePermissions: Assignments;
}

/** The messages shown when a call fails without saying why (docs/product.md §5.3). */
export const USER_CALL_FAILURES = {
  list: 'can not get users',
  toggle: 'cannot toggle users property',
  delete: 'cannot delete users',
  resetTfa: 'cannot reset TFA',
  resetPassword: 'cannot reset password',
  pipelines: 'cannot fetch the users pipelines',
} as const;

/** The text to show for a failed call, or null when the request layer showed it already. */
export function failureText(error: unknown, fallback: string): string | null {
  if (wasShown(error)) return null;
  return error instanceof ApiError ? error.message || fallback : fallback;
}

/** The form values of a user, or of a new one. */
export function formFromUser(user: ManagedUser | null): UserFormValues {
  return {
    firstName: user?.firstName ?? '',
    lastName: user?.lastName ?? '',
    userName: user?.userName ?? '',
    email: user?.email ?? '',
    service: user?.service ?? '',
    roles: (user?.roles ?? []).map((r) => r.name).filter(isRole),
    isActive: user?.isActive ?? true,
    isNoCode: user?.isNoCode ?? false,
    onlyDealers: user ? !user.unrestrictedUpload : true,
  };
}

/** The badges and assignments of a user, or of a new one. */
export function extrasFromUser(user: ManagedUser | null): UserExtras {
  return {
    admin_tags: [...(user?.admin_tags ?? [])],
    project_tags: [...(user?.project_tags ?? [])],
    pipelinePermissions: { ...(user?.pipelinePermissions ?? {}) },
  };
}

/** The user name shown while typing the names: derived for a new user, kept for an existing one. */
export function userNameFor(user: ManagedUser | null, firstName: string, lastName: string): string {
  return user ? user.userName : deriveUserName(firstName, lastName);
}

/**
 * The rule the dialog stops on before the field rules (docs/product.md §6.4, in order): the role rules,
 * then, unless the actor is a super-admin, one of the actor's admin badges.
 */
export function dialogRuleError(
  actor: Pick<ScopeActor, 'roles' | 'admin_tags'>,
  roles: readonly string[],
  adminTags: readonly string[],
) {
  const role = roleRuleError(roles);
  if (role) return role;
  if (!isSuperAdmin(actor.roles) && !adminTags.some((t) => actor.admin_tags.includes(t))) return USER_MESSAGES.needAdminBadge;
  return null;
}

/** The message of a field rule the values break, or null. */
export function fieldError(values: UserFormValues, field: keyof UserFormValues): string | null {
  return userFieldIssues(values).find((i) => i.path === field)?.message ?? null;
}

/** The body of POST /users for the dialog's values. */
export function saveBody(user: ManagedUser | null, values: UserFormValues, extras: UserExtras): UserSaveBody {
  const hasUser = values.roles.includes('user');
  return {
    ...(user ? { _id: user._id } : {}),
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    userName: values.userName,
    email: values.email.trim(),
    service: values.service.trim(),
    roles: values.roles,
    isActive: values.isActive,
    isNoCode: values.isNoCode,
    unrestrictedUpload: hasUser ? !values.onlyDealers : true,
    admin_tags: extras.admin_tags,
    project_tags: extras.project_tags,
    pipelinePermissions: extras.pipelinePermissions,
  };
}
