/** PostgreSQL's code for a unique-constraint violation; both engines report it. */
const UNIQUE_VIOLATION = '23505';

/** True when a statement was refused because it would duplicate a unique key. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION;
}

/** PostgreSQL's code for a foreign-key violation. */
const FOREIGN_KEY_VIOLATION = '23503';

/** True when a statement was refused because a row it names is gone. */
export function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === FOREIGN_KEY_VIOLATION;
}
