import { CODES } from '@gdb/shared/api/envelope';
import type { TfaAnswer } from '@gdb/shared/auth/account.schemas';
import type { LoginAnswer } from '@gdb/shared/auth/session.schemas';
import { signAccessToken } from '../../platform/auth/access-token.ts';
import { burnPasswordCheck, verifyPassword } from '../../platform/auth/passwords.ts';
import { hashToken, randomToken } from '../../platform/auth/secrets.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { User, UsersService } from '../users/users.service.ts';
import { authRepo } from './auth.repo.ts';
import { tfaStep } from './tfa-step.ts';
import type { ThrottleService } from './throttle.service.ts';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

const LOGIN_FAILED = 'Wrong username or password.';
const TFA_FAILED = 'Invalid two-factor code.';
const TFA_EXPIRED = 'The two-factor step has expired, please sign in again.';

/** Opens a session for the user: the session row, its first refresh token and an access token. */
async function openSession(ctx: AppContext, users: UsersService, user: User, client: ClientInfo) {
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
  const token = await signAccessToken(ctx.secrets.tokenKey, { userId: user.id, sessionId }, ctx.config.accessTokenTtl);
  await users.touchLastSeen(user.id);
  return { token, refreshToken };
}

/** Signing in: the password, then the two-factor step when the account needs it. */
export function signIn(ctx: AppContext, users: UsersService, throttle: ThrottleService) {
  const repo = authRepo(ctx.db.kysely);
  const tfa = tfaStep(ctx, users);
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
      if (tfa.needsTfa(user))
        return { token: null, refreshToken: null, tfa: await tfa.startTfa(user, account.tfaSecret), goNocode: false };
      const { token, refreshToken } = await openSession(ctx, users, user, client);
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
      const { ok, recoveryCodes } = await tfa.checkCode(user, account.tfaSecret, code);
      if (!ok) throw new AppError(401, CODES.unauthenticated, TFA_FAILED);
      if (!(await repo.useChallenge(idHash))) throw new AppError(401, CODES.unauthenticated, TFA_EXPIRED);
      await throttle.succeeded(keys);
      const { token, refreshToken } = await openSession(ctx, users, user, client);
      return { token, refreshToken, recoveryCodes, goNocode: user.is_no_code };
    },
  };
}
