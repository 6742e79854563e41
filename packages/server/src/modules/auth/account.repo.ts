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
    token: (tokenHash: string) =>
      k
        .selectFrom('password_tokens')
        .select(['id', 'user_id', 'purpose', 'expires_at', 'used_at'])
        .where('token_hash', '=', tokenHash)
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
