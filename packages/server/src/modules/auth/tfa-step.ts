import type { LoginAnswer } from '@gdb/shared/auth/session.schemas';
import { decrypt, encrypt, hashToken, randomToken } from '../../platform/auth/secrets.ts';
import type { AppContext } from '../../platform/context.ts';
import type { User, UsersService } from '../users/users.service.ts';
import { authRepo } from './auth.repo.ts';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpSetup, totpStep } from './tfa.ts';

/** How long the two-factor step may take after the password was accepted. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** The sign-in's two-factor step: whether it is needed, its challenge and setup, and the code check. */
export function tfaStep(ctx: AppContext, users: UsersService) {
  const repo = authRepo(ctx.db.kysely);
  const { encryptionKey } = ctx.secrets;
  return {
    /** Whether the account signs in with a second factor: once set up always, else as TFA_REQUIRED says. */
    needsTfa(user: User): boolean {
      if (user.tfa_enabled) return true;
      if (ctx.config.tfaRequired === 'all') return true;
      if (ctx.config.tfaRequired === 'admins') return user.roles.includes('admin') || user.roles.includes('super-admin');
      return false;
    },

    /** Opens the two-factor step; before the first setup it carries the secret and its QR image. */
    async startTfa(user: User, tfaSecret: string | null): Promise<NonNullable<LoginAnswer['tfa']>> {
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
    },

    /** Checks a TOTP or recovery code; answers the recovery codes when this code completed the setup. */
    async checkCode(
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
    },
  };
}
