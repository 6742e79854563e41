import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/tables.ts';

/** What a test run runs: a component version (the component editor) or an SDK function version (the SDK editor). */
export type TestRunSubject = { componentId: string } | { sdkFunctionId: string };

/** How long a test run is remembered (who started it). */
const KEPT = sql`interval '1 day'`;

/** SQL for the editors' test runs: who started each, by the id the editor gave it. */
export function testRunsRepo(k: Kysely<Database>) {
  return {
    /** Records a run as the caller's; false when the id is taken already. Runs older than a day are forgotten first. */
    async claim(id: string, userId: string, subject: TestRunSubject): Promise<boolean> {
      await k.deleteFrom('test_runs').where('started_at', '<', sql<Date>`now() - ${KEPT}`).execute();
      const row = await k
        .insertInto('test_runs')
        .values({
          id,
          user_id: userId,
          component_id: 'componentId' in subject ? subject.componentId : null,
          sdk_function_id: 'sdkFunctionId' in subject ? subject.sdkFunctionId : null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },
    /** Who started each of these runs (those recorded). */
    owners: (ids: readonly string[]) =>
      ids.length ? k.selectFrom('test_runs').select(['id', 'user_id']).where('id', 'in', ids).execute() : Promise.resolve([]),
  };
}
