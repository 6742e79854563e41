import { describe, expect, it } from 'vitest';
import {
  CREATED_PASSWORD_MAX,
  confirmationError,
  createdPasswordError,
  PASSWORD_MESSAGES,
  PASSWORD_SPECIALS,
  passwordHasRequiredShape,
} from './password-rules.ts';

const PATTERN = 'The password must contain at least one lowercase, one uppercase, one digit and a special character';

describe('created password', () => {
  it('uses the spec messages', () => {
    expect(PASSWORD_MESSAGES.pattern).toBe(PATTERN);
    expect(PASSWORD_MESSAGES.containsPart).toBe('The password should not contain a part of the username');
    expect(PASSWORD_MESSAGES.containsUserName).toBe('The password should not contain the username');
    expect(PASSWORD_MESSAGES.mismatch).toBe("The passwords don't match !");
    expect(PASSWORD_MESSAGES.failedForm).toBe('Something went wrong. Please check the password you typed.');
  });

  it.each([
    ['Abcdef1!', null],
    ['aBCDEFG1?', null],
    ['abcdefg1!', PATTERN],
    ['password1!', PATTERN],
    ['ABCDEFG1?', PATTERN],
    ['Abcde1!', PATTERN],
    ['Abcdefgh!', PATTERN],
    ['Abcdefgh1', PATTERN],
    ['12345678!', PATTERN],
    ['Abcd efg1!', PATTERN],
    ['Abcdéfg1!', PATTERN],
    ['Abcdefg1€', PATTERN],
  ])('%s → %s', (password, expected) => {
    expect(createdPasswordError(password, 'jane.doe')).toBe(expected);
  });

  it('accepts every listed special character', () => {
    expect(PASSWORD_SPECIALS).toBe('~!@#$%^&*_-+=`|\\(){}[]:;"\'<>,.?/');
    for (const special of PASSWORD_SPECIALS) {
      expect(passwordHasRequiredShape(`Abcdefg1${special}`), special).toBe(true);
      expect(passwordHasRequiredShape(`Abcdefgh${special}`), special).toBe(false);
    }
  });

  it('refuses passwords longer than the maximum', () => {
    expect(passwordHasRequiredShape(`A1!${'a'.repeat(CREATED_PASSWORD_MAX - 3)}`)).toBe(true);
    expect(passwordHasRequiredShape(`A1!${'a'.repeat(CREATED_PASSWORD_MAX - 2)}`)).toBe(false);
  });

  it('refuses the whole user name, ignoring case', () => {
    expect(createdPasswordError('xJane.Doe1!', 'jane.doe')).toBe('The password should not contain the username');
  });

  it('refuses any dot-separated part of the user name, ignoring case', () => {
    expect(createdPasswordError('Doe12345!', 'jane.doe')).toBe('The password should not contain a part of the username');
    expect(createdPasswordError('1!xxJANExx', 'jane.doe')).toBe('The password should not contain a part of the username');
    expect(createdPasswordError('Luc-Pic1!x', 'jean-luc.picard')).toBeNull();
    expect(createdPasswordError('Jean-luc1!', 'jean-luc.picard')).toBe('The password should not contain a part of the username');
  });

  it('ignores empty parts of an odd user name', () => {
    expect(createdPasswordError('Abcdef1!', '.doe.')).toBeNull();
    expect(createdPasswordError('Abcdef1!', '')).toBeNull();
  });

  it('checks the confirmation', () => {
    expect(confirmationError('Abcdef1!', 'Abcdef1!')).toBeNull();
    expect(confirmationError('Abcdef1!', 'abcdef1!')).toBe("The passwords don't match !");
  });
});
