import type { Issue } from '../api/envelope.ts';
import { ROLES, type Role } from '../auth/roles.ts';
import { roleRuleError, USER_MESSAGES, type UserFields, userFieldIssues } from './user-rules.ts';

/** Messages for what the admin-badge scope refuses. */
export const SCOPE_MESSAGES = {
  outOfScope: 'You can only manage users who share one of your admin badges.',
  adminTarget: 'Only a super-admin can manage an admin or a super-admin.',
  roleNotAssignable: 'Only a super-admin can give the roles Admin or Super-Admin.',
  ownRolesRaised: 'You cannot raise your own roles.',
  foreignBadges: 'You can only give or take away your own admin badges.',
  foreignProjectBadges: 'You can only give or take away the project badges you hold.',
  self: 'You cannot de-activate, delete or reset the two-factor authentication of your own account.',
} as const;

/** The person managing users. */
export interface ScopeActor {
  _id: string;
  roles: readonly string[];
  admin_tags: readonly string[];
}

/** A managed user as the scope rules see it. */
export interface ScopeTarget {
  _id: string;
  roles: readonly string[];
  admin_tags: readonly string[];
}

const ELEVATED: readonly string[] = ['admin', 'super-admin'];

export function isSuperAdmin(roles: readonly string[]): boolean {
  return roles.includes('super-admin');
}

/** The roles an actor may give: every role for a super-admin, User or Manager for anyone else. */
export function assignableRoles(actor: Pick<ScopeActor, 'roles'>): Role[] {
  return isSuperAdmin(actor.roles) ? [...ROLES] : ['user', 'manager'];
}

/** True when the actor sees the user: a super-admin sees everyone, others themselves and users sharing an admin badge. */
export function canSeeUser(actor: ScopeActor, target: ScopeTarget): boolean {
  if (isSuperAdmin(actor.roles) || actor._id === target._id) return true;
  return target.admin_tags.some((t) => actor.admin_tags.includes(t));
}

/**
 * Why the actor may not act on an existing user (toggle, delete, reset, edit), or null.
 * `selfAllowed` is false for actions nobody may take on their own account.
 */
export function manageUserError(actor: ScopeActor, target: ScopeTarget, selfAllowed: boolean): string | null {
  const self = actor._id === target._id;
  if (self) return selfAllowed ? null : SCOPE_MESSAGES.self;
  if (!canSeeUser(actor, target)) return SCOPE_MESSAGES.outOfScope;
  if (!isSuperAdmin(actor.roles) && target.roles.some((r) => ELEVATED.includes(r))) return SCOPE_MESSAGES.adminTarget;
  return null;
}

/** The admin-badge part of a save: what the actor may give, keep or take away. */
export function adminBadgeError(
  actor: ScopeActor,
  before: Pick<ScopeTarget, 'admin_tags'> | null,
  after: Pick<ScopeTarget, 'admin_tags'>,
): string | null {
  if (isSuperAdmin(actor.roles)) return null;
  if (!after.admin_tags.some((t) => actor.admin_tags.includes(t))) return USER_MESSAGES.needAdminBadge;
  const foreign = (tags: readonly string[]) => [...new Set(tags.filter((t) => !actor.admin_tags.includes(t)))].sort().join(',');
  if (foreign(before?.admin_tags ?? []) !== foreign(after.admin_tags)) return SCOPE_MESSAGES.foreignBadges;
  return null;
}

/** The badges in `tags` outside `held`, in one comparable text. */
const outside = (tags: readonly string[], held: readonly string[]) =>
  [...new Set(tags.filter((t) => !held.includes(t)))].sort().join(',');

/**
 * The project-badge part of a save: an actor other than a super-admin gives or takes away only
 * the project badges it holds itself (which open documents to their holder), to any user it
 * manages and to itself; the others a user has are kept as they are.
 */
export function projectBadgeError(
  actor: { roles: readonly string[]; project_tags: readonly string[] },
  before: { project_tags: readonly string[] } | null,
  after: { project_tags: readonly string[] },
): string | null {
  if (isSuperAdmin(actor.roles)) return null;
  const held = actor.project_tags;
  return outside(before?.project_tags ?? [], held) === outside(after.project_tags, held)
    ? null
    : SCOPE_MESSAGES.foreignProjectBadges;
}

/**
 * Why the actor may not save these roles and badges for this user (`before` is null for a new
 * user), or null. Nobody raises their own roles; only a super-admin gives Admin or Super-Admin.
 */
export function saveScopeError(actor: ScopeActor, before: ScopeTarget | null, after: ScopeTarget): string | null {
  if (before) {
    const self = actor._id === before._id;
    const refused = manageUserError(actor, before, true);
    if (refused) return refused;
    if (self) {
      if (after.roles.some((r) => !before.roles.includes(r))) return SCOPE_MESSAGES.ownRolesRaised;
      return adminBadgeError(actor, before, after);
    }
  }
  const giveable: readonly string[] = assignableRoles(actor);
  if (after.roles.some((r) => !giveable.includes(r))) return SCOPE_MESSAGES.roleNotAssignable;
  return adminBadgeError(actor, before, after);
}

/** A user dialog save as the rules see it. */
export interface UserSave extends UserFields {
  admin_tags: readonly string[];
}

/**
 * Every problem of a user dialog save in the order of docs/product.md §6.4: the first broken role rule, then the
 * actor's admin badge (unless the actor is a super-admin), then the field rules.
 */
export function userSaveIssues(actor: Pick<ScopeActor, 'roles' | 'admin_tags'>, form: UserSave): Issue[] {
  const issues: Issue[] = [];
  const role = roleRuleError(form.roles);
  if (role) issues.push({ path: 'roles', message: role });
  if (!isSuperAdmin(actor.roles) && !form.admin_tags.some((t) => actor.admin_tags.includes(t))) {
    issues.push({ path: 'admin_tags', message: USER_MESSAGES.needAdminBadge });
  }
  return [...issues, ...userFieldIssues(form)];
}
