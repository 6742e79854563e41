import { CODES } from '@gdb/shared/api/envelope';
import type { TfaAnswer } from '@gdb/shared/auth/account.schemas';
import type { LoginAnswer, RefreshAnswer, UserInfo } from '@gdb/shared/auth/session.schemas';
import { mimetypesMap } from '@gdb/shared/reference/mimetypes';
import type { AuthContext } from '../../platform/auth/access-control.ts';
import { signAccessToken, verifyAccessToken } from '../../platform/auth/access-token.ts';
import { burnPasswordCheck, verifyPassword } from '../../platform/auth/passwords.ts';
import { decrypt, encrypt, hashToken, randomToken } from '../../platform/auth/secrets.ts';
import { cachedAuthenticate, SessionCache } from '../../platform/auth/session-cache.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound, unauthorized } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { User, UsersService } from '../users/users.service.ts';
import { authRepo } from './auth.repo.ts';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpSetup, totpStep } from './tfa.ts';
import type { ThrottleService } from './throttle.service.ts';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

const LOGIN_FAILED = 'Wrong username or password.';
const TFA_FAILED = 'Invalid two-factor code.';
const TFA_EXPIRED = 'The two-factor step has expired, please sign in again.';
/** How long the two-factor step may take after the password was accepted. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export function authService(ctx: AppContext, users: UsersService, throttle: ThrottleService) {
  const repo = authRepo(ctx.db.kysely);
  const sessions = new SessionCache(ctx.config.sessionCacheMs);

  /** Ends a session; this instance stops taking its tokens at once (others when notified, or after the cache's TTL). */
  async function revokeSession(sessionId: string): Promise<void> {
    await repo.revokeSession(sessionId);
    sessions.forgetSession(sessionId);
  }

  /** Resolves an access token to its caller by reading its session; revoked sessions and disabled users are refused. */
  async function lookUp(token: string): Promise<AuthContext> {
    const claims = await verifyAccessToken(tokenKey, token);
    const row = await repo.session(claims.sessionId);
    const user = row && (await users.byId(row.user_id));
    if (!row || !user || row.user_id !== claims.userId) throw unauthorized(CODES.badToken, 'Invalid token.');
    if (row.revoked_at) throw unauthorized(CODES.revoked, 'Your session has been revoked.');
    if (!user.is_active) throw unauthorized(CODES.badToken, 'Your account is disabled.');
    return { userId: user.id, sessionId: row.session_id, userName: user.user_name, roles: user.roles };
  }
  const { tokenKey, encryptionKey } = ctx.secrets;

  async function openSession(user: User, client: ClientInfo) {
    const sessionId = newId();
    const refreshToken = randomToken();
    await ctx.db.kysely.transaction().execute(async (trx) => {
      const repo = authRepo(trx);
      await repo.createSession({
        id: sessionId,
        userId: user.id,
        expiresAt: new Date(Date.now() + ctx.config.refreshTokenTtl * 1000),
        clientIp: client.ip,
        userAgent: client.userAgent?.slice(0, 300) ?? null,
      });
      await repo.addRefreshToken(sessionId, hashToken(refreshToken));
    });
    const token = await signAccessToken(tokenKey, { userId: user.id, sessionId }, ctx.config.accessTokenTtl);
    await users.touchLastSeen(user.id);
    return { token, refreshToken };
  }

  /** Whether the account signs in with a second factor: once set up always, else as TFA_REQUIRED says. */
  function needsTfa(user: User): boolean {
    if (user.tfa_enabled) return true;
    if (ctx.config.tfaRequired === 'all') return true;
    if (ctx.config.tfaRequired === 'admins') return user.roles.includes('admin') || user.roles.includes('super-admin');
    return false;
  }

  /** Opens the two-factor step; before the first setup it carries the secret and its QR image. */
  async function startTfa(user: User, tfaSecret: string | null): Promise<NonNullable<LoginAnswer['tfa']>> {
    const challenge = randomToken();
    await repo.purgeChallenges(user.id);
    await repo.createChallenge(hashToken(challenge), user.id, new Date(Date.now() + CHALLENGE_TTL_MS));
    if (user.tfa_enabled) return { _id: challenge };
    let secret = tfaSecret ? decrypt(encryptionKey, tfaSecret) : null;
    if (!secret) {
      secret = newTotpSecret();
      await users.storeTfaSecret(user.id, encrypt(encryptionKey, secret));
    }
    return { _id: challenge, ...(await totpSetup(secret, user.user_name)) };
  }

  /** Checks a TOTP or recovery code; answers the recovery codes when this code completed the setup. */
  async function checkCode(
    user: User,
    tfaSecret: string | null,
    code: string,
  ): Promise<{ ok: boolean; recoveryCodes: string[] | null }> {
    const clean = code.replace(/\s+/g, '');
    if (/^\d{6}$/.test(clean)) {
      if (!tfaSecret) return { ok: false, recoveryCodes: null };
      const step = totpStep(decrypt(encryptionKey, tfaSecret), clean);
      if (step === null || !(await users.acceptTfaStep(user.id, step))) return { ok: false, recoveryCodes: null };
      if (user.tfa_enabled) return { ok: true, recoveryCodes: null };
      const codes = newRecoveryCodes();
      await users.enableTfa(
        user.id,
        codes.map((c) => hashRecoveryCode(encryptionKey, c)),
      );
      return { ok: true, recoveryCodes: codes };
    }
    const ok = await users.useRecoveryCode(user.id, hashRecoveryCode(encryptionKey, clean));
    return { ok, recoveryCodes: null };
  }

  return {
    /** Checks the credentials (within the attempt limits) and opens a session, or the two-factor step. */
    async login(username: string, password: string, client: ClientInfo): Promise<LoginAnswer> {
      const name = username.trim();
      const keys = throttle.keys('login', name, client.ip);
      await throttle.hit(keys);
      const account = await users.credentials({ userName: name });
      if (!account?.passwordHash) {
        await burnPasswordCheck(password);
        throw new AppError(401, CODES.unauthenticated, LOGIN_FAILED);
      }
      if (!(await verifyPassword(account.passwordHash, password))) throw new AppError(401, CODES.unauthenticated, LOGIN_FAILED);
      await throttle.succeeded(keys);
      const { user } = account;
      if (!user.is_active) throw new AppError(403, CODES.forbidden, 'Your account is disabled.');
      if (needsTfa(user))
        return { token: null, refreshToken: null, tfa: await startTfa(user, account.tfaSecret), goNocode: false };
      const { token, refreshToken } = await openSession(user, client);
      return { token, refreshToken, tfa: null, goNocode: user.is_no_code };
    },

    /** Completes a sign-in with a TOTP or recovery code; each code is accepted once. */
    async verifyTfa(challengeId: string, code: string, client: ClientInfo): Promise<TfaAnswer> {
      const idHash = hashToken(challengeId);
      const challenge = await repo.challenge(idHash);
      if (!challenge || challenge.used_at || challenge.expires_at.getTime() <= Date.now()) {
        throw new AppError(401, CODES.unauthenticated, TFA_EXPIRED);
      }
      const keys = throttle.keys('tfa', challenge.user_id, client.ip);
      await throttle.hit(keys);
      const account = await users.credentials({ id: challenge.user_id });
      if (!account) throw new AppError(401, CODES.unauthenticated, TFA_EXPIRED);
      const { user } = account;
      if (!user.is_active) throw new AppError(403, CODES.forbidden, 'Your account is disabled.');
      const { ok, recoveryCodes } = await checkCode(user, account.tfaSecret, code);
      if (!ok) throw new AppError(401, CODES.unauthenticated, TFA_FAILED);
      if (!(await repo.useChallenge(idHash))) throw new AppError(401, CODES.unauthenticated, TFA_EXPIRED);
      await throttle.succeeded(keys);
      const { token, refreshToken } = await openSession(user, client);
      return { token, refreshToken, recoveryCodes, goNocode: user.is_no_code };
    },

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

    /** The signed-in user as the web shell needs it. */
    async info(auth: AuthContext): Promise<UserInfo> {
      const user = await users.byId(auth.userId);
      if (!user) throw notFound('User not found.');
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
      };
    },
  };
}

export type AuthService = ReturnType<typeof authService>;
