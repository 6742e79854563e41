// Allowed: the isolate's library imports its own files.
export const cell = (value: string) => value.trim();
