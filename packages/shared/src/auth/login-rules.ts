/** Sign-in messages and limits (docs/product.md §4.1, §4.2, §1.3), word for word. */
export const LOGIN_MESSAGES = {
  passwordTooShort: 'The password can not be less than 6 digits',
  forgotLink: 'Forgot your password ?',
  usernameHint: 'firstname.lastname',
  tfaTitle: 'Two-Factor Authentication',
  tfaPlaceholder: '6-digit code',
  codesCopied: 'The codes are copied to clipboard',
  verificationFailed: 'Verification failed, please Login again',
} as const;

export const LOGIN_PASSWORD_MIN = 6;
export const TFA_CODE_MIN = 6;
export const TFA_CODE_MAX = 10;

/** The sign-in form's check: the user name is only required (and sent trimmed), the password at least 6 characters. */
export function loginFormIssues(username: string, password: string): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (!username.trim()) issues.push({ path: 'username', message: 'Please input your username' });
  if (!password) issues.push({ path: 'password', message: 'Please input your password' });
  else if (password.length < LOGIN_PASSWORD_MIN) issues.push({ path: 'password', message: LOGIN_MESSAGES.passwordTooShort });
  return issues;
}

/** True when the two-factor input has the accepted length (a 6-digit code or a recovery code). */
export function isTfaCodeLength(code: string): boolean {
  const n = code.trim().length;
  return n >= TFA_CODE_MIN && n <= TFA_CODE_MAX;
}
