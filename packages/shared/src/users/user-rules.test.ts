import { describe, expect, it } from 'vitest';
import { ROLES } from '../auth/roles.ts';
import {
  deriveUserName,
  isEmail,
  ROLE_RULES,
  roleChangeEffects,
  roleRuleError,
  USER_MESSAGES,
  unknownRoles,
  userFieldIssues,
  userMatchesSearch,
} from './user-rules.ts';

/** Every list of 0 to 3 roles drawn from the four roles, repeats included. */
function allRoleLists(): string[][] {
  const out: string[][] = [[]];
  for (const a of ROLES) {
    out.push([a]);
    for (const b of ROLES) {
      out.push([a, b]);
      for (const c of ROLES) out.push([a, b, c]);
    }
  }
  return out;
}

describe('role rules', () => {
  it('lists the five dialog messages in the spec order', () => {
    expect(ROLE_RULES.map((r) => r.message)).toEqual([
      'You must select at least a role',
      'A user cannot have more than 2 roles',
      'The only available combination of two roles is Admin & Manager',
      'A user with role User can only have one role',
      'A user with role SuperAdmin can only have one role',
    ]);
  });

  it.each([
    [[], 'You must select at least a role'],
    [['user', 'manager', 'admin'], 'A user cannot have more than 2 roles'],
    [['admin', 'manager', 'super-admin', 'user'], 'A user cannot have more than 2 roles'],
    [['user', 'manager'], 'The only available combination of two roles is Admin & Manager'],
    [['super-admin', 'admin'], 'The only available combination of two roles is Admin & Manager'],
    [['admin', 'admin'], 'The only available combination of two roles is Admin & Manager'],
    [['manager', 'manager'], 'The only available combination of two roles is Admin & Manager'],
  ])('refuses %j with the first broken rule', (roles, message) => {
    expect(roleRuleError(roles)).toBe(message);
  });

  it.each([[['user']], [['manager']], [['admin']], [['super-admin']], [['admin', 'manager']], [['manager', 'admin']]])(
    'accepts %j',
    (roles) => {
      expect(roleRuleError(roles)).toBeNull();
    },
  );

  it('accepts exactly the single roles and the admin + manager pair among every combination', () => {
    const accepted = allRoleLists()
      .filter((roles) => roleRuleError(roles) === null)
      .map((r) => [...r].sort().join('+'));
    expect([...new Set(accepted)].sort()).toEqual(['admin', 'admin+manager', 'manager', 'super-admin', 'user']);
  });

  it('checks each rule on its own, so the User and SuperAdmin rules hold without the pair rule', () => {
    const rule = (i: number) => ROLE_RULES[i];
    expect(rule(3)?.fails(['user', 'admin'])).toBe(true);
    expect(rule(3)?.fails(['user'])).toBe(false);
    expect(rule(4)?.fails(['super-admin', 'manager'])).toBe(true);
    expect(rule(4)?.fails(['super-admin'])).toBe(false);
    expect(rule(2)?.fails(['admin', 'manager'])).toBe(false);
  });

  it('names the roles that are not product roles', () => {
    expect(unknownRoles(['user', 'root', 'Admin'])).toEqual(['root', 'Admin']);
    expect(unknownRoles([...ROLES])).toEqual([]);
  });
});

describe('field rules', () => {
  const good = { firstName: 'Jane', lastName: 'Doe', userName: 'jane.doe1', email: 'jane@example.com', roles: ['user'] };

  it('accepts a complete form', () => {
    expect(userFieldIssues(good)).toEqual([]);
  });

  it('gives the required messages for empty fields, one per field, in field order', () => {
    expect(userFieldIssues({ firstName: ' ', lastName: '', userName: '', email: '', roles: [] })).toEqual([
      { path: 'firstName', message: 'Please input first name' },
      { path: 'lastName', message: 'Please input last name' },
      { path: 'userName', message: 'Please input your last and first name' },
      { path: 'email', message: 'Please input email' },
      { path: 'roles', message: 'Please select at least one role' },
    ]);
  });

  it.each([
    ['Jo', 'Length should be 3 to 25'],
    ['Joe', null],
    ['A'.repeat(25), null],
    ['A'.repeat(26), 'Length should be 3 to 25'],
  ])('bounds first and last names: %s', (name, message) => {
    const issues = userFieldIssues({ ...good, firstName: name, lastName: name });
    expect(issues).toEqual(
      message
        ? [
            { path: 'firstName', message },
            { path: 'lastName', message },
          ]
        : [],
    );
  });

  it.each([
    ['abc.def', 'Length should be at least 8'],
    ['abcd.efg', null],
    ['a'.repeat(50), null],
    ['a'.repeat(51), 'Length should be at least 8'],
  ])('bounds the user name: %s', (userName, message) => {
    expect(userFieldIssues({ ...good, userName })).toEqual(message ? [{ path: 'userName', message }] : []);
  });

  it.each(['plain', 'a@b', 'a@@b.com', '.a@b.com', 'a..b@c.com', 'a b@c.com', 'a@b.c'])('refuses the email %s', (email) => {
    expect(userFieldIssues({ ...good, email })).toEqual([{ path: 'email', message: 'Please input correct email address' }]);
    expect(isEmail(email)).toBe(false);
  });

  it.each(['a@b.co', 'first.last+tag@sub.example.org', "o'neil@example.ie"])('accepts the email %s', (email) => {
    expect(isEmail(email)).toBe(true);
  });
});

describe('user-name derivation', () => {
  it.each([
    ['Jane', 'Doe', 'jane.doe'],
    ['Jean Luc', 'Picard', 'jean-luc.picard'],
    ['  Mary  Ann ', ' Van   Dyke', 'mary-ann.van-dyke'],
    ['ÉLODIE', 'Durand', 'élodie.durand'],
    ['', 'Doe', '.doe'],
    ['Jane', '', 'jane.'],
    ['', '', ''],
    ['   ', ' ', ''],
  ])('%j + %j → %j', (first, last, expected) => {
    expect(deriveUserName(first, last)).toBe(expected);
  });
});

describe('role change effects', () => {
  it('clears unrestricted upload for a user and keeps the transfer view', () => {
    expect(roleChangeEffects(['user'])).toEqual({
      unrestrictedUpload: false,
      clearPipelines: false,
      showPipelines: true,
      showOnlyDealersUpload: true,
    });
  });

  it.each([[['manager']], [['admin']], [['super-admin']], [['admin', 'manager']]])(
    'sets unrestricted upload and clears pipelines for %j',
    (roles) => {
      expect(roleChangeEffects(roles)).toEqual({
        unrestrictedUpload: true,
        clearPipelines: true,
        showPipelines: false,
        showOnlyDealersUpload: false,
      });
    },
  );

  it('keeps the transfer view with no role yet', () => {
    expect(roleChangeEffects([]).showPipelines).toBe(true);
  });
});

describe('user search', () => {
  const user = { firstName: 'Jane', lastName: 'Doe', email: 'jd@corp.example', roles: [{ name: 'manager' }] };
  it.each([
    ['', true],
    ['JANE', true],
    ['doe', true],
    ['CORP.', true],
    ['manag', true],
    ['admin', false],
    ['jane doe', false],
  ])('%j → %s', (q, expected) => {
    expect(userMatchesSearch(user, q)).toBe(expected);
  });

  it('reads role names given as strings too', () => {
    expect(userMatchesSearch({ ...user, roles: ['super-admin'] }, 'super')).toBe(true);
  });
});

describe('messages', () => {
  it('formats the server failure and the bulk confirmations', () => {
    expect(USER_MESSAGES.saveFailed('boom')).toBe('From server : boom');
    expect(USER_MESSAGES.confirmBulk('de-activate')).toBe('Do you want to de-activate all the users?');
  });
});
