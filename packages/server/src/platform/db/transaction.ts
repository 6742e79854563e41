import type { Kysely } from 'kysely';
import type { Database } from './tables.ts';

/** Where queries run: the database, or a transaction a caller opened (a Kysely transaction is one). */
export type Executor = Kysely<Database>;

/**
 * Runs `work` in a transaction: the caller's when `k` is one already (so operations of several
 * services commit together), else a new one. Inside, use only the handle `work` receives.
 */
export function inTransaction<T>(k: Executor, work: (trx: Executor) => Promise<T>): Promise<T> {
  return k.isTransaction ? work(k) : k.transaction().execute(work);
}
