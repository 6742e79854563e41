import { confirmationError, createdPasswordError, FORGOTTEN_MESSAGES } from '@gdb/shared/auth/password-rules';
import { isEmail, USER_MESSAGES } from '@gdb/shared/users/user-rules';

const PASSWORD_FIELD_MESSAGES = {
  passwordRequired: 'Please input the password',
  confirmRequired: 'Please input the password again',
} as const;

/** The create-password field's message for this user name (docs/product.md §4.3), or null. */
function passwordFieldError(password: string, userName: string): string | null {
  if (!password) return PASSWORD_FIELD_MESSAGES.passwordRequired;
  return createdPasswordError(password, userName);
}

/** The confirmation field's message, or null. */
function confirmFieldError(password: string, confirmation: string): string | null {
  if (!confirmation) return PASSWORD_FIELD_MESSAGES.confirmRequired;
  return confirmationError(password, confirmation);
}

/** What is wrong with each field of the create-password form, if anything (docs/product.md §4.3). */
export function passwordProblems(
  password: string,
  confirmation: string,
  userName: string,
): { password?: string; confirm?: string } {
  const problems: { password?: string; confirm?: string } = {};
  const first = passwordFieldError(password, userName);
  if (first) problems.password = first;
  const second = confirmFieldError(password, confirmation);
  if (second) problems.confirm = second;
  return problems;
}

/** The forgotten-password email field's message, or null. */
export function forgottenEmailError(email: string): string | null {
  const clean = email.trim();
  if (!clean) return FORGOTTEN_MESSAGES.emailRequired;
  return isEmail(clean) ? null : USER_MESSAGES.emailInvalid;
}
