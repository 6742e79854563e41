import { CODES } from '@gdb/shared/api/envelope';
import type { RefreshAnswer, UserInfo } from '@gdb/shared/auth/session.schemas';
import { mimetypesMap } from '@gdb/shared/reference/mimetypes';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { signAccessToken, verifyAccessToken } from '../../platform/auth/access-token.ts';
import { hashToken, randomToken } from '../../platform/auth/secrets.ts';
import { cachedAuthenticate, SessionCache } from '../../platform/auth/session-cache.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound, unauthorized } from '../../platform/http/errors.ts';
import type { User, UsersService } from '../users/users.service.ts';
import { authRepo } from './auth.repo.ts';
import { signIn } from './sign-in.ts';
import type { ThrottleService } from './throttle.service.ts';

export type { ClientInfo } from './sign-in.ts';

/** The signed-in user as the web shell needs it, with the check services its forms may ask. */
function userInfo(user: User, formCheckUrls: string[]): UserInfo {
  return {
    user: {
      _id: user.id,
      firstName: user.first_name,
      lastName: user.last_name,
      userName: user.user_name,
      email: user.email,
      avatar: user.avatar ?? '',
      role: user.roles.join(','),
      roles: user.roles.map((name) => ({ name })),
      tags: user.project_tags,
      unrestrictedUpload: user.unrestricted_upload,
      isNoCode: user.is_no_code,
    },
    mimetypes: mimetypesMap(),
    formCheckUrls,
  };
}

export function authService(ctx: AppContext, users: UsersService, throttle: ThrottleService) {
  const repo = authRepo(ctx.db.kysely);
  const sessions = new SessionCache(ctx.config.sessionCacheMs);
  const { tokenKey } = ctx.secrets;

  /** Ends a session; this instance stops taking its tokens at once (others when notified, or after the cache's TTL). */
  async function revokeSession(sessionId: string): Promise<void> {
    await repo.revokeSession(sessionId);
    sessions.forgetSession(sessionId);
  }

  /**
   * Resolves an access token to its caller by reading its session and user (with what the access
   * checks read of it); revoked sessions and disabled users are refused.
   */
  async function lookUp(token: string): Promise<AuthContext> {
    const claims = await verifyAccessToken(tokenKey, token);
    const row = await repo.session(claims.sessionId);
    const user = row && (await users.byId(row.user_id));
    if (!row || !user || row.user_id !== claims.userId) throw unauthorized(CODES.badToken, 'Invalid token.');
    if (row.revoked_at) throw unauthorized(CODES.revoked, 'Your session has been revoked.');
    if (!user.is_active) throw unauthorized(CODES.badToken, 'Your account is disabled.');
    const access = await users.profileOf(user);
    const info = userInfo(user, ctx.config.formCheckUrls);
    return { userId: user.id, sessionId: row.session_id, userName: user.user_name, roles: user.roles, access, info };
  }

  return {
    ...signIn(ctx, users, throttle),

    /** Trades a refresh token for a new pair; a reused token revokes its whole session. */
    async refresh(refreshToken: string): Promise<RefreshAnswer> {
      const hash = hashToken(refreshToken);
      const row = await repo.refreshToken(hash);
      const user = row && (await users.byId(row.user_id));
      if (!row || !user) throw unauthorized(CODES.badToken, 'Invalid refresh token.');
      if (row.revoked_at) throw unauthorized(CODES.revoked, 'Your session has been revoked.');
      if (row.used_at || !(await repo.markUsed(hash))) {
        await revokeSession(row.session_id);
        throw unauthorized(CODES.revoked, 'Your session has been revoked.');
      }
      if (!user.is_active) {
        await revokeSession(row.session_id);
        throw unauthorized(CODES.revoked, 'Your account is disabled.');
      }
      if (row.expires_at.getTime() <= Date.now()) throw unauthorized(CODES.expired, 'Your session has expired.');
      const next = randomToken();
      await repo.addRefreshToken(row.session_id, hashToken(next));
      const token = await signAccessToken(
        tokenKey,
        { userId: row.user_id, sessionId: row.session_id },
        ctx.config.accessTokenTtl,
      );
      return { token, refreshToken: next };
    },

    /** Ends the caller's session. */
    async logout(sessionId: string): Promise<void> {
      await revokeSession(sessionId);
    },

    /** Which of these sessions are still open: not revoked, not expired, their user active. */
    async openSessions(sessionIds: readonly string[]): Promise<Set<string>> {
      if (sessionIds.length === 0) return new Set();
      const rows = await repo.unexpired(sessionIds);
      const active = await users.activeAmong(rows.map((r) => r.user_id));
      return new Set(rows.filter((r) => active.has(r.user_id)).map((r) => r.id));
    },

    /** Ends every session of a user (deactivated, password or two-factor reset). */
    async revokeUserSessions(userId: string): Promise<void> {
      await repo.revokeUserSessions(userId);
      sessions.forgetUser(userId);
    },

    /** Resolves an access token to its caller, from the session cache while it is fresh (SESSION_CACHE_S). */
    authenticate: cachedAuthenticate(sessions, lookUp),

    /** The verified tokens this instance keeps; `sessions.follow` hears the other instances' revocations. */
    sessions,

    /** The signed-in user as the web shell needs it: as read with the session, while it is cached. */
    async info(auth: AuthContext): Promise<UserInfo> {
      if (auth.info) return auth.info;
      const user = await users.byId(auth.userId);
      if (!user) throw notFound('User not found.');
      return userInfo(user, ctx.config.formCheckUrls);
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
