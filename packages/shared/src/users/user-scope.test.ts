import { describe, expect, it } from 'vitest';
import {
  adminBadgeError,
  assignableRoles,
  canSeeUser,
  manageUserError,
  projectBadgeError,
  SCOPE_MESSAGES,
  saveScopeError,
  userSaveIssues,
} from './user-scope.ts';

const A = 'badge-a';
const B = 'badge-b';
const C = 'badge-c';

const superAdmin = { _id: 'sa', roles: ['super-admin'], admin_tags: [] };
const admin = { _id: 'ad', roles: ['admin'], admin_tags: [A, B] };
const adminManager = { _id: 'am', roles: ['admin', 'manager'], admin_tags: [A] };

const user = (id: string, roles: string[], tags: string[]) => ({ _id: id, roles, admin_tags: tags });

describe('what a non-super-admin sees', () => {
  it('sees users sharing one of its admin badges, and itself', () => {
    expect(canSeeUser(admin, user('u1', ['user'], [B]))).toBe(true);
    expect(canSeeUser(admin, user('u2', ['user'], [C]))).toBe(false);
    expect(canSeeUser(admin, user('u3', ['user'], []))).toBe(false);
    expect(canSeeUser(admin, { ...admin })).toBe(true);
  });

  it('lets a super-admin see everyone', () => {
    expect(canSeeUser(superAdmin, user('u2', ['admin'], [C]))).toBe(true);
    expect(canSeeUser(superAdmin, user('u3', ['user'], []))).toBe(true);
  });
});

describe('roles an actor may give', () => {
  it('offers Admin and Super-Admin only to a super-admin', () => {
    expect(assignableRoles(superAdmin)).toEqual(['user', 'manager', 'admin', 'super-admin']);
    expect(assignableRoles(admin)).toEqual(['user', 'manager']);
    expect(assignableRoles(adminManager)).toEqual(['user', 'manager']);
  });
});

describe('acting on an existing user', () => {
  it('refuses users outside the scope', () => {
    expect(manageUserError(admin, user('u', ['user'], [C]), true)).toBe(SCOPE_MESSAGES.outOfScope);
  });
  it('refuses admins and super-admins to a non-super-admin, even sharing a badge', () => {
    expect(manageUserError(admin, user('u', ['admin'], [A]), true)).toBe(SCOPE_MESSAGES.adminTarget);
    expect(manageUserError(admin, user('u', ['super-admin'], [A]), true)).toBe(SCOPE_MESSAGES.adminTarget);
    expect(manageUserError(admin, user('u', ['admin', 'manager'], [A]), true)).toBe(SCOPE_MESSAGES.adminTarget);
  });
  it('allows a user or manager in scope', () => {
    expect(manageUserError(admin, user('u', ['manager'], [A]), true)).toBeNull();
    expect(manageUserError(admin, user('u', ['user'], [B, C]), true)).toBeNull();
  });
  it('lets a super-admin act on anyone but refuses self-only actions on itself', () => {
    expect(manageUserError(superAdmin, user('x', ['super-admin'], []), false)).toBeNull();
    expect(manageUserError(superAdmin, superAdmin, false)).toBe(SCOPE_MESSAGES.self);
    expect(manageUserError(superAdmin, superAdmin, true)).toBeNull();
  });
});

describe('admin badges given on save', () => {
  it('requires one of the actor’s admin badges unless the actor is a super-admin', () => {
    expect(adminBadgeError(admin, null, { admin_tags: [] })).toBe('User must have at least one of your admin badges');
    expect(adminBadgeError(admin, null, { admin_tags: [C] })).toBe('User must have at least one of your admin badges');
    expect(adminBadgeError(admin, null, { admin_tags: [B] })).toBeNull();
    expect(adminBadgeError(superAdmin, null, { admin_tags: [] })).toBeNull();
  });
  it('refuses giving or taking away a badge the actor does not hold', () => {
    expect(adminBadgeError(admin, null, { admin_tags: [A, C] })).toBe(SCOPE_MESSAGES.foreignBadges);
    expect(adminBadgeError(admin, { admin_tags: [A, C] }, { admin_tags: [A] })).toBe(SCOPE_MESSAGES.foreignBadges);
    expect(adminBadgeError(admin, { admin_tags: [A, C] }, { admin_tags: [B, C] })).toBeNull();
    expect(adminBadgeError(admin, { admin_tags: [A] }, { admin_tags: [A, B] })).toBeNull();
  });
});

describe('project badges given on save', () => {
  const holder = { roles: ['admin'], project_tags: [A] };
  it('lets a non-super-admin give or take away only the project badges it holds, to others and to itself', () => {
    expect(projectBadgeError(holder, null, { project_tags: [A] })).toBeNull();
    expect(projectBadgeError(holder, { project_tags: [A, C] }, { project_tags: [C] })).toBeNull();
    expect(projectBadgeError(holder, null, { project_tags: [B] })).toBe(SCOPE_MESSAGES.foreignProjectBadges);
    expect(projectBadgeError(holder, { project_tags: [A] }, { project_tags: [A, B] })).toBe(SCOPE_MESSAGES.foreignProjectBadges);
    expect(projectBadgeError(holder, { project_tags: [A, C] }, { project_tags: [A] })).toBe(SCOPE_MESSAGES.foreignProjectBadges);
  });
  it('lets a super-admin give any', () => {
    expect(projectBadgeError({ roles: ['super-admin'], project_tags: [] }, null, { project_tags: [B, C] })).toBeNull();
  });
});

describe('saving roles', () => {
  it('lets a non-super-admin create only User or Manager', () => {
    expect(saveScopeError(admin, null, user('n', ['user'], [A]))).toBeNull();
    expect(saveScopeError(admin, null, user('n', ['manager'], [A]))).toBeNull();
    expect(saveScopeError(admin, null, user('n', ['admin'], [A]))).toBe(SCOPE_MESSAGES.roleNotAssignable);
    expect(saveScopeError(admin, null, user('n', ['admin', 'manager'], [A]))).toBe(SCOPE_MESSAGES.roleNotAssignable);
    expect(saveScopeError(admin, null, user('n', ['super-admin'], [A]))).toBe(SCOPE_MESSAGES.roleNotAssignable);
  });

  it('lets only a super-admin create admins and super-admins', () => {
    expect(saveScopeError(superAdmin, null, user('n', ['admin', 'manager'], []))).toBeNull();
    expect(saveScopeError(superAdmin, null, user('n', ['super-admin'], []))).toBeNull();
  });

  it('refuses a non-super-admin raising a user in scope to admin', () => {
    const before = user('u', ['manager'], [A]);
    expect(saveScopeError(admin, before, { ...before, roles: ['admin'] })).toBe(SCOPE_MESSAGES.roleNotAssignable);
    expect(saveScopeError(admin, before, { ...before, roles: ['user'] })).toBeNull();
  });

  it('refuses editing a super-admin or an admin to a non-super-admin', () => {
    const target = user('t', ['super-admin'], [A]);
    expect(saveScopeError(admin, target, { ...target, roles: ['user'] })).toBe(SCOPE_MESSAGES.adminTarget);
  });

  it('refuses editing a user outside the scope', () => {
    const target = user('t', ['user'], [C]);
    expect(saveScopeError(admin, target, { ...target, admin_tags: [A, C] })).toBe(SCOPE_MESSAGES.outOfScope);
  });

  it('lets nobody raise their own roles, not even keeping the others', () => {
    expect(saveScopeError(admin, admin, { ...admin, roles: ['super-admin'] })).toBe(SCOPE_MESSAGES.ownRolesRaised);
    expect(saveScopeError(admin, admin, { ...admin, roles: ['admin', 'manager'] })).toBe(SCOPE_MESSAGES.ownRolesRaised);
    expect(saveScopeError(adminManager, adminManager, { ...adminManager })).toBeNull();
    expect(saveScopeError(adminManager, adminManager, { ...adminManager, roles: ['admin'] })).toBeNull();
    const manager = { _id: 'm', roles: ['manager'], admin_tags: [A] };
    expect(saveScopeError(manager, manager, { ...manager, roles: ['admin', 'manager'] })).toBe(SCOPE_MESSAGES.ownRolesRaised);
  });

  it('keeps the badge rule when an admin edits itself', () => {
    expect(saveScopeError(admin, admin, { ...admin, admin_tags: [] })).toBe('User must have at least one of your admin badges');
    expect(saveScopeError(admin, admin, { ...admin, admin_tags: [A, B, C] })).toBe(SCOPE_MESSAGES.foreignBadges);
  });
});

describe('user dialog save', () => {
  const form = {
    firstName: 'Jane',
    lastName: 'Doe',
    userName: 'jane.doe',
    email: 'jane@example.com',
    roles: ['user'],
    admin_tags: [A],
  };

  it('accepts a valid form', () => {
    expect(userSaveIssues(admin, form)).toEqual([]);
  });

  it('puts the role rule first, then the badge rule, then the field rules', () => {
    const issues = userSaveIssues(admin, { ...form, roles: [], admin_tags: [C], firstName: '' });
    expect(issues.map((i) => i.message)).toEqual([
      'You must select at least a role',
      'User must have at least one of your admin badges',
      'Please input first name',
      'Please select at least one role',
    ]);
  });

  it('skips the badge rule for a super-admin', () => {
    expect(userSaveIssues(superAdmin, { ...form, admin_tags: [] })).toEqual([]);
  });

  it('reports only the first broken role rule', () => {
    expect(userSaveIssues(superAdmin, { ...form, roles: ['user', 'manager', 'admin'] })).toEqual([
      { path: 'roles', message: 'A user cannot have more than 2 roles' },
    ]);
  });
});
