import { type Kysely, sql } from 'kysely';
import type { Database } from '../../platform/db/index.ts';

/** SQL for the attempt counters every server instance shares. */
export function throttleRepo(k: Kysely<Database>) {
  return {
    /** Counts one attempt in the key's window (a new window starts when the old one is over). */
    hit: async (key: string, windowSeconds: number): Promise<{ hits: number; retrySeconds: number }> => {
      const window = sql`(${windowSeconds}::int * interval '1 second')`;
      const { rows } = await sql<{ hits: number; retry_seconds: number }>`
        insert into auth_throttle as t (key, window_start, hits) values (${key}, now(), 1)
        on conflict (key) do update set
          hits = case when t.window_start <= now() - ${window} then 1 else t.hits + 1 end,
          window_start = case when t.window_start <= now() - ${window} then now() else t.window_start end
        returning hits, greatest(1, ceil(extract(epoch from (window_start + ${window} - now()))))::int as retry_seconds
      `.execute(k);
      const row = rows[0];
      if (!row) throw new Error('the attempt counter answered nothing');
      return { hits: Number(row.hits), retrySeconds: Number(row.retry_seconds) };
    },
    /** Takes one attempt back (a success from a shared address should not count against it). */
    undo: (key: string) =>
      k
        .updateTable('auth_throttle')
        .set((eb) => ({ hits: sql<number>`greatest(${eb.ref('hits')} - 1, 0)` }))
        .where('key', '=', key)
        .execute(),
    clear: (key: string) => k.deleteFrom('auth_throttle').where('key', '=', key).execute(),
    purgeOlderThan: (seconds: number) =>
      k
        .deleteFrom('auth_throttle')
        .where('window_start', '<', sql<Date>`now() - (${seconds}::int * interval '1 second')`)
        .execute(),
  };
}
