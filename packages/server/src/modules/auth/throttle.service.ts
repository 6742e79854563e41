import crypto from 'node:crypto';
import type { AppContext } from '../../platform/context.ts';
import { tooMany } from '../../platform/http/errors.ts';
import { throttleRepo } from './throttle.repo.ts';

/** How many attempts a window allows. */
export interface Limit {
  max: number;
  windowSeconds: number;
}

const MINUTES_15 = 15 * 60;
const HOUR = 3600;

/**
 * The brute-force limits (docs/security-accounts.md lists them). Sign-in and two-factor count
 * failures: a success gives its attempt back. Forgotten-password counts every request.
 */
export const LIMITS = {
  login: { account: { max: 5, windowSeconds: MINUTES_15 }, address: { max: 30, windowSeconds: MINUTES_15 } },
  tfa: { account: { max: 5, windowSeconds: MINUTES_15 }, address: { max: 30, windowSeconds: MINUTES_15 } },
  forgotten: { account: { max: 3, windowSeconds: HOUR }, address: { max: 10, windowSeconds: HOUR } },
} as const satisfies Record<string, { account: Limit; address: Limit }>;

export type ThrottlePurpose = keyof typeof LIMITS;

const MESSAGES: Record<ThrottlePurpose, string> = {
  login: 'Too many failed sign-in attempts.',
  tfa: 'Too many wrong two-factor codes.',
  forgotten: 'Too many password recovery requests.',
};

/** The counters one attempt touches: the account's and the client address's. */
export interface AttemptKeys {
  purpose: ThrottlePurpose;
  account: string;
  address: string;
}

const digest = (value: string) => crypto.createHash('sha256').update(value).digest('base64url').slice(0, 32);

function waitText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

export function throttleService(ctx: AppContext) {
  const repo = throttleRepo(ctx.db.kysely);
  let sincePurge = 0;
  return {
    /** The counter keys of one attempt; account and address are stored only as digests. */
    keys(purpose: ThrottlePurpose, account: string, address: string | null): AttemptKeys {
      return {
        purpose,
        account: `${purpose}:account:${digest(account.trim().toLowerCase())}`,
        address: `${purpose}:address:${digest(address ?? 'unknown')}`,
      };
    },

    /** Counts an attempt against both counters and refuses it (429) once either is over its limit. */
    async hit(keys: AttemptKeys): Promise<void> {
      const limits = LIMITS[keys.purpose];
      const account = await repo.hit(keys.account, limits.account.windowSeconds);
      const address = await repo.hit(keys.address, limits.address.windowSeconds);
      sincePurge += 1;
      if (sincePurge >= 200) {
        sincePurge = 0;
        await repo.purgeOlderThan(24 * HOUR);
      }
      const over = [
        account.hits > limits.account.max ? account.retrySeconds : 0,
        address.hits > limits.address.max ? address.retrySeconds : 0,
      ];
      const wait = Math.max(...over);
      if (wait > 0) throw tooMany(`${MESSAGES[keys.purpose]} Please try again in ${waitText(wait)}.`);
    },

    /** After a success: the account starts afresh and the address gets its attempt back. */
    async succeeded(keys: AttemptKeys): Promise<void> {
      await repo.clear(keys.account);
      await repo.undo(keys.address);
    },
  };
}

export type ThrottleService = ReturnType<typeof throttleService>;
