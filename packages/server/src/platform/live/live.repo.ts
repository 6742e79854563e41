import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/** The SQL the live hub runs itself: which sessions of its sockets are still open. */
export function liveRepo(k: Kysely<Database>) {
  return {
    /** Which of these sessions are still open: not revoked, not expired, their user active. */
    openSessions: async (sessionIds: readonly string[]) => {
      if (sessionIds.length === 0) return new Set<string>();
      const rows = await k
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .select('s.id')
        .where('s.id', 'in', [...sessionIds])
        .where('s.revoked_at', 'is', null)
        .where('s.expires_at', '>', new Date())
        .where('u.is_active', '=', true)
        .execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
