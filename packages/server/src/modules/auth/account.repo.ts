import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/index.ts';

/** SQL for single-use password links (create and reset), stored as hashes. */
export function accountRepo(k: Kysely<Database>) {
  return {
    /** Spends every unused link of the user (a new link replaces the old ones). */
    retireTokens: (userId: string) =>
      k
        .updateTable('password_tokens')
        .set({ used_at: new Date() })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute(),
    addToken: (t: { id: string; userId: string; tokenHash: string; purpose: 'create' | 'reset'; expiresAt: Date }) =>
      k
        .insertInto('password_tokens')
        .values({ id: t.id, user_id: t.userId, token_hash: t.tokenHash, purpose: t.purpose, expires_at: t.expiresAt })
        .execute(),
    tokenWithUser: (tokenHash: string) =>
      k
        .selectFrom('password_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .select(['t.id', 't.user_id', 't.purpose', 't.expires_at', 't.used_at', 'u.user_name', 'u.is_active'])
        .where('t.token_hash', '=', tokenHash)
        .executeTakeFirst(),
    /** Spends a link; false when it was spent already or has expired. */
    useToken: async (id: string) => {
      const r = await k
        .updateTable('password_tokens')
        .set({ used_at: new Date() })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date())
        .executeTakeFirst();
      return r.numUpdatedRows === 1n;
    },
  };
}
