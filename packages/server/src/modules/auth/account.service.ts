import { CODES } from '@gdb/shared/api/envelope';
import { createdPasswordError, PASSWORD_MESSAGES } from '@gdb/shared/auth/password-rules';
import { isEmail, USER_MESSAGES } from '@gdb/shared/users/user-rules';
import type { PasswordMail } from '@gdb/shared/users/users.schemas';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { hashToken, randomToken } from '../../platform/auth/secrets.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, invalid } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { UsersService } from '../users/users.service.ts';
import { accountRepo } from './account.repo.ts';
import { type LinkPurpose, passwordLink, passwordMail } from './account-mail.ts';
import type { AuthService, ClientInfo } from './auth.service.ts';
import type { ThrottleService } from './throttle.service.ts';

/** Whom a password link is mailed to. */
export interface LinkRecipient {
  id: string;
  user_name: string;
  email: string;
  first_name: string;
  last_name: string;
}

/** How long a password link stays valid, by why it was sent. */
const LINK_VALIDITY_HOURS = { create: 7 * 24, reset: 24, forgotten: 1 } as const;

export function accountService(
  ctx: AppContext,
  users: UsersService,
  auth: AuthService,
  mailer: Mailer,
  throttle: ThrottleService,
) {
  const repo = accountRepo(ctx.db.kysely);
  const background = new Set<Promise<void>>();

  async function sendLink(user: LinkRecipient, purpose: LinkPurpose, validHours: number): Promise<PasswordMail> {
    const token = randomToken();
    await ctx.db.kysely.transaction().execute(async (trx) => {
      const r = accountRepo(trx);
      await r.retireTokens(user.id);
      await r.addToken({
        id: newId(),
        userId: user.id,
        tokenHash: hashToken(token),
        purpose,
        expiresAt: new Date(Date.now() + validHours * 3600 * 1000),
      });
    });
    const link = passwordLink(ctx.config.publicUrl, token, user.user_name);
    const to = { email: user.email, firstName: user.first_name, lastName: user.last_name, userName: user.user_name };
    await mailer.send(passwordMail(to, purpose, link, validHours), { link });
    return { to: user.email, written: mailer.mode === 'outbox' };
  }

  return {
    /** Mails a single-use password link: a new account's first password, or a reset by an admin; answers where it went. */
    async sendPasswordLink(user: LinkRecipient, purpose: LinkPurpose): Promise<PasswordMail> {
      try {
        return await sendLink(user, purpose, LINK_VALIDITY_HOURS[purpose]);
      } catch (err) {
        ctx.log.error({ err, userId: user.id }, 'password mail failed');
        const what = purpose === 'create' ? 'The user was saved' : 'The password was reset';
        throw new AppError(
          502,
          CODES.internal,
          `${what}, but the mail could not be sent. Check the mail settings, then use reset password to send it again.`,
        );
      }
    },

    /**
     * Starts a password recovery. The answer never says whether the address exists, and the
     * look-up and the mail happen after it, so it takes the same time either way.
     */
    async forgotten(email: string, client: ClientInfo): Promise<void> {
      const address = email.trim();
      if (!isEmail(address)) throw invalid(USER_MESSAGES.emailInvalid, [{ path: 'email', message: USER_MESSAGES.emailInvalid }]);
      await throttle.hit(throttle.keys('forgotten', address, client.ip));
      const task = (async () => {
        const user = await users.byEmail(address);
        if (!user?.is_active) {
          ctx.log.info('password recovery asked for an unknown or disabled address');
          return;
        }
        await sendLink(user, 'reset', LINK_VALIDITY_HOURS.forgotten);
      })().catch((err: unknown) => ctx.log.error({ err }, 'password recovery mail failed'));
      background.add(task);
      void task.finally(() => background.delete(task));
    },

    /** Sets a password from a link: the link must be valid and unused, the password must follow the rules. */
    async createPassword(token: string, password: string): Promise<void> {
      const row = await repo.token(hashToken(token));
      const user = row && (await users.byId(row.user_id));
      if (!row || !user?.is_active || row.used_at || row.expires_at.getTime() <= Date.now()) {
        throw badRequest(PASSWORD_MESSAGES.badToken);
      }
      const problem = createdPasswordError(password, user.user_name);
      if (problem) throw invalid(problem, [{ path: 'password', message: problem }]);
      const hash = await hashPassword(password);
      if (!(await repo.useToken(row.id))) throw badRequest(PASSWORD_MESSAGES.badToken);
      await users.setPasswordHash(row.user_id, hash);
      await repo.retireTokens(row.user_id);
      await auth.revokeUserSessions(row.user_id);
    },

    /** Resolves once the recovery mails started so far are sent (tests and shutdown wait on it). */
    async settled(): Promise<void> {
      await Promise.all([...background]);
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
