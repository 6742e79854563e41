import { describe, expect, it } from 'vitest';
import { isTfaCodeLength, loginFormIssues } from './login-rules.ts';

describe('sign-in form', () => {
  it('requires both fields and a password of at least 6 characters', () => {
    expect(loginFormIssues('  ', '')).toEqual([
      { path: 'username', message: 'Please input your username' },
      { path: 'password', message: 'Please input your password' },
    ]);
    expect(loginFormIssues('jane.doe', '12345')).toEqual([
      { path: 'password', message: 'The password can not be less than 6 digits' },
    ]);
    expect(loginFormIssues(' jane.doe ', '123456')).toEqual([]);
  });

  it.each([
    ['12345', false],
    ['123456', true],
    [' 123456 ', true],
    ['abcdefghij', true],
    ['abcdefghijk', false],
  ])('accepts two-factor codes of 6 to 10 characters: %j → %s', (code, ok) => {
    expect(isTfaCodeLength(code)).toBe(ok);
  });
});
