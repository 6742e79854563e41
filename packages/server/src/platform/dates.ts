/** A timestamp as the database driver gives it (a Date, or text on some paths) in ISO 8601. */
export const isoOf = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();

/** The same, keeping an absent timestamp absent. */
export const isoOrNull = (v: Date | string | null) => (v === null ? null : isoOf(v));
