import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/index.ts';

/** SQL for sessions and their rotating refresh tokens. */
export function authRepo(k: Kysely<Database>) {
  return {
    createSession: (s: { id: string; userId: string; expiresAt: Date; clientIp: string | null; userAgent: string | null }) =>
      k
        .insertInto('sessions')
        .values({ id: s.id, user_id: s.userId, expires_at: s.expiresAt, client_ip: s.clientIp, user_agent: s.userAgent })
        .execute(),
    addRefreshToken: (sessionId: string, tokenHash: string) =>
      k.insertInto('refresh_tokens').values({ session_id: sessionId, token_hash: tokenHash }).execute(),
    refreshToken: (tokenHash: string) =>
      k
        .selectFrom('refresh_tokens as r')
        .innerJoin('sessions as s', 's.id', 'r.session_id')
        .select(['r.token_hash', 'r.used_at', 's.id as session_id', 's.user_id', 's.expires_at', 's.revoked_at'])
        .where('r.token_hash', '=', tokenHash)
        .executeTakeFirst(),
    /** Marks a refresh token used; false when another request used it first. */
    markUsed: async (tokenHash: string) => {
      const r = await k
        .updateTable('refresh_tokens')
        .set({ used_at: new Date() })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return r.numUpdatedRows === 1n;
    },
    revokeSession: (sessionId: string) =>
      k
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute(),
    /** Of these sessions, those neither revoked nor expired, with their user. */
    unexpired: (sessionIds: readonly string[]) =>
      k
        .selectFrom('sessions')
        .select(['id', 'user_id'])
        .where('id', 'in', [...sessionIds])
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', new Date())
        .execute(),
    revokeUserSessions: (userId: string) =>
      k
        .updateTable('sessions')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute(),
    createChallenge: (idHash: string, userId: string, expiresAt: Date) =>
      k.insertInto('tfa_challenges').values({ id_hash: idHash, user_id: userId, expires_at: expiresAt }).execute(),
    challenge: (idHash: string) => k.selectFrom('tfa_challenges').selectAll().where('id_hash', '=', idHash).executeTakeFirst(),
    /** Spends a challenge; false when it was spent already or has expired. */
    useChallenge: async (idHash: string) => {
      const r = await k
        .updateTable('tfa_challenges')
        .set({ used_at: new Date() })
        .where('id_hash', '=', idHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date())
        .executeTakeFirst();
      return r.numUpdatedRows === 1n;
    },
    purgeChallenges: (userId: string) =>
      k
        .deleteFrom('tfa_challenges')
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('expires_at', '<', new Date()), eb('used_at', 'is not', null)]))
        .execute(),
    session: (sessionId: string) =>
      k
        .selectFrom('sessions')
        .select(['id as session_id', 'revoked_at', 'expires_at', 'user_id'])
        .where('id', '=', sessionId)
        .executeTakeFirst(),
  };
}
