/** The create-password and forgotten-password messages (docs/product.md §4.3, §4.4), word for word. */
export const PASSWORD_MESSAGES = {
  pattern: 'The password must contain at least one lowercase, one uppercase, one digit and a special character',
  containsPart: 'The password should not contain a part of the username',
  containsUserName: 'The password should not contain the username',
  mismatch: "The passwords don't match !",
  failedForm: 'Something went wrong. Please check the password you typed.',
  set: 'The password has been successfully set.',
  badToken: 'invalid or expired token.',
} as const;

export const FORGOTTEN_MESSAGES = {
  asked:
    'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.',
  failedForm: 'Something went wrong. Please check the email you typed.',
  emailRequired: 'Please input email',
} as const;

/** The special characters a created password may contain. */
export const PASSWORD_SPECIALS = '~!@#$%^&*_-+=`|\\(){}[]:;"\'<>,.?/';
export const CREATED_PASSWORD_MIN = 8;
/** Longer passwords are refused before hashing (argon2 would accept them, the form has no use for them). */
export const CREATED_PASSWORD_MAX = 128;

const escaped = PASSWORD_SPECIALS.replace(/[\\\]\-^]/g, '\\$&');
const ALLOWED = new RegExp(`^[A-Za-z0-9${escaped}]+$`);
const SPECIAL = new RegExp(`[${escaped}]`);

/**
 * True when the password has only allowed characters, a lowercase and an uppercase letter, a digit,
 * a special and at least 8 characters: what `PASSWORD_MESSAGES.pattern` tells the user.
 */
export function passwordHasRequiredShape(password: string): boolean {
  return (
    password.length >= CREATED_PASSWORD_MIN &&
    password.length <= CREATED_PASSWORD_MAX &&
    ALLOWED.test(password) &&
    /[a-z]/.test(password) &&
    /[A-Z]/.test(password) &&
    /[0-9]/.test(password) &&
    SPECIAL.test(password)
  );
}

/**
 * The first rule a new password breaks for this user name, or null: the character rules, then the
 * whole user name, then any of its dot-separated parts (compared ignoring case).
 */
export function createdPasswordError(password: string, userName: string): string | null {
  if (!passwordHasRequiredShape(password)) return PASSWORD_MESSAGES.pattern;
  const lower = password.toLowerCase();
  const name = userName.trim().toLowerCase();
  if (name && lower.includes(name)) return PASSWORD_MESSAGES.containsUserName;
  const parts = name.split('.').filter((p) => p.length > 0);
  if (parts.some((p) => lower.includes(p))) return PASSWORD_MESSAGES.containsPart;
  return null;
}

/** The confirmation rule of the create-password form. */
export function confirmationError(password: string, confirmation: string): string | null {
  return password === confirmation ? null : PASSWORD_MESSAGES.mismatch;
}
