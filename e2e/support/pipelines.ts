// The pipelines of the browser tests: the demo content of a new install, given to the test user,
// and one whose component takes a few seconds, to watch log lines arrive while it runs.

/** A demo country pipeline, assigned to USERS.user. */
export const COUNTRY_PIPELINE = 'Dealers France';

/** Also assigned to USERS.user; its component runs for SLOW_RUN_MS before it answers. */
export const SLOW_PIPELINE = 'Dealers slow check';
export const SLOW_RUN_MS = 10_000;
