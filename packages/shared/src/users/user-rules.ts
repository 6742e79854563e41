import type { Issue } from '../api/envelope.ts';
import { isRole, type Role } from '../auth/roles.ts';

/** The user dialog's messages (docs/product.md §6.4 to §6.7), word for word. */
export const USER_MESSAGES = {
  noRole: 'You must select at least a role',
  tooManyRoles: 'A user cannot have more than 2 roles',
  badPair: 'The only available combination of two roles is Admin & Manager',
  userAlone: 'A user with role User can only have one role',
  superAdminAlone: 'A user with role SuperAdmin can only have one role',
  needAdminBadge: 'User must have at least one of your admin badges',
  firstNameRequired: 'Please input first name',
  lastNameRequired: 'Please input last name',
  nameLength: 'Length should be 3 to 25',
  userNameRequired: 'Please input your last and first name',
  userNameLength: 'Length should be at least 8',
  emailRequired: 'Please input email',
  emailInvalid: 'Please input correct email address',
  rolesRequired: 'Please select at least one role',
  saveFailed: (error: string) => `From server : ${error}`,
  updated: 'The user data has been updated successfully.',
  created: 'The new user has been created successfully.',
  deletedOne: 'User deleted successfully',
  deletedMany: 'Selected users deleted successfully.',
  activated: 'Activation for the selected users has been successfully turned on.',
  deactivated: 'De-activation for the selected users has been successfully turned off.',
  passwordReset: 'Password reset successful for the user.',
  tfaReset: 'ResetTFA successful for the user.',
  tagsDialogClosed: 'To see changes reflected in the pipeline list, please save the user and re-open this dialog',
  confirmDeleteOne: 'Do you want to delete this user?',
  confirmBulk: (action: 'delete' | 'activate' | 'de-activate') => `Do you want to ${action} all the users?`,
} as const;

/** Name bounds (docs/product.md §1.3). */
export const NAME_MIN = 3;
export const NAME_MAX = 25;
export const USER_NAME_MIN = 8;
export const USER_NAME_MAX = 50;
export const MAX_ROLES = 2;

/** One role rule of the user dialog: the message and the roles it refuses. */
export interface RoleRule {
  message: string;
  fails: (roles: readonly string[]) => boolean;
}

/** The role rules of the user dialog, in the order they are checked (docs/product.md §6.4). */
export const ROLE_RULES: readonly RoleRule[] = [
  { message: USER_MESSAGES.noRole, fails: (roles) => roles.length === 0 },
  { message: USER_MESSAGES.tooManyRoles, fails: (roles) => roles.length > MAX_ROLES },
  {
    message: USER_MESSAGES.badPair,
    fails: (roles) => roles.length === 2 && !(roles.includes('admin') && roles.includes('manager')),
  },
  { message: USER_MESSAGES.userAlone, fails: (roles) => roles.includes('user') && roles.length > 1 },
  { message: USER_MESSAGES.superAdminAlone, fails: (roles) => roles.includes('super-admin') && roles.length > 1 },
];

/** The first role rule the roles break, or null when the combination is allowed. */
export function roleRuleError(roles: readonly string[]): string | null {
  return ROLE_RULES.find((rule) => rule.fails(roles))?.message ?? null;
}

/** The roles that are not one of the four product roles. */
export function unknownRoles(roles: readonly string[]): string[] {
  return roles.filter((r) => !isRole(r));
}

/** The fields of the user dialog the field rules look at. */
export interface UserFields {
  firstName: string;
  lastName: string;
  userName: string;
  email: string;
  roles: readonly string[];
}

// The same shape as zod's email check: a local part, an @, and a dotted domain.
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** True for an address the dialog accepts. */
export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

function nameError(value: string, required: string): string | null {
  const v = value.trim();
  if (!v) return required;
  if (v.length < NAME_MIN || v.length > NAME_MAX) return USER_MESSAGES.nameLength;
  return null;
}

/** Every field rule the values break, one message per field, in the dialog's field order. */
export function userFieldIssues(fields: UserFields): Issue[] {
  const issues: Issue[] = [];
  const push = (path: string, message: string | null) => {
    if (message) issues.push({ path, message });
  };
  push('firstName', nameError(fields.firstName, USER_MESSAGES.firstNameRequired));
  push('lastName', nameError(fields.lastName, USER_MESSAGES.lastNameRequired));
  const userName = fields.userName.trim();
  push(
    'userName',
    !userName
      ? USER_MESSAGES.userNameRequired
      : userName.length < USER_NAME_MIN || userName.length > USER_NAME_MAX
        ? USER_MESSAGES.userNameLength
        : null,
  );
  const email = fields.email.trim();
  push('email', !email ? USER_MESSAGES.emailRequired : isEmail(email) ? null : USER_MESSAGES.emailInvalid);
  push('roles', fields.roles.length === 0 ? USER_MESSAGES.rolesRequired : null);
  return issues;
}

/**
 * The user name derived from the names of a new user: each lower-cased, whitespace turned into
 * hyphens, joined by a dot; empty when only the dot would remain.
 */
export function deriveUserName(firstName: string, lastName: string): string {
  const part = (s: string) => s.trim().toLowerCase().replace(/\s+/g, '-');
  const name = `${part(firstName)}.${part(lastName)}`;
  return name === '.' ? '' : name;
}

/** Roles that see every pipeline: their assignments are cleared and the transfer view is hidden. */
export const UNASSIGNED_ROLES: readonly Role[] = ['manager', 'admin', 'super-admin'];

/** What a change of roles does to the rest of the dialog (docs/product.md §6.3). */
export function roleChangeEffects(roles: readonly string[]): {
  unrestrictedUpload: boolean;
  clearPipelines: boolean;
  showPipelines: boolean;
  showOnlyDealersUpload: boolean;
} {
  const unassigned = roles.some((r) => (UNASSIGNED_ROLES as readonly string[]).includes(r));
  return {
    unrestrictedUpload: !roles.includes('user'),
    clearPipelines: unassigned,
    showPipelines: !unassigned,
    showOnlyDealersUpload: roles.includes('user'),
  };
}

/** The fields the user list's search box looks at. */
export interface SearchableUser {
  firstName: string;
  lastName: string;
  email: string;
  roles: readonly (string | { name: string })[];
}

/** True when the search text is empty or found, ignoring case, in a name, the email or a role name. */
export function userMatchesSearch(user: SearchableUser, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  const roleNames = user.roles.map((r) => (typeof r === 'string' ? r : r.name));
  return [user.firstName, user.lastName, user.email, ...roleNames].some((v) => v.toLowerCase().includes(q));
}
