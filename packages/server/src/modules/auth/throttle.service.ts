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

/** The counters of one purpose: per account and client address, per account, per client address. */
export interface PurposeLimits {
  /** Failures of one account from one address: the attacker's own address is refused first. */
  accountAddress?: Limit;
  /** Attempts on one account from any address (guesses spread over many addresses). */
  account: Limit;
  /** Attempts from one address on any accounts; colleagues behind one proxy share it, so it is higher. */
  address: Limit;
}

/**
 * The brute-force limits (docs/security-accounts.md lists them). Sign-in and two-factor count
 * failures: a success gives its attempt back. Forgotten-password counts every request. The
 * account and address limits of sign-in and two-factor are settings (`SIGNIN_ACCOUNT_LIMIT`,
 * `SIGNIN_ADDRESS_LIMIT`); these are their defaults.
 */
export const LIMITS = {
  login: {
    accountAddress: { max: 5, windowSeconds: MINUTES_15 },
    account: { max: 20, windowSeconds: MINUTES_15 },
    address: { max: 100, windowSeconds: MINUTES_15 },
  },
  tfa: {
    accountAddress: { max: 5, windowSeconds: MINUTES_15 },
    account: { max: 20, windowSeconds: MINUTES_15 },
    address: { max: 100, windowSeconds: MINUTES_15 },
  },
  forgotten: { account: { max: 3, windowSeconds: HOUR }, address: { max: 10, windowSeconds: HOUR } },
} as const satisfies Record<string, PurposeLimits>;

export type ThrottlePurpose = keyof typeof LIMITS;

const MESSAGES: Record<ThrottlePurpose, string> = {
  login: 'Too many failed sign-in attempts.',
  tfa: 'Too many wrong two-factor codes.',
  forgotten: 'Too many password recovery requests.',
};

/** The counters one attempt touches: the account's from this address, the account's, and the client address's. */
export interface AttemptKeys {
  purpose: ThrottlePurpose;
  accountAddress: string;
  account: string;
  address: string;
}

const digest = (value: string) => crypto.createHash('sha256').update(value).digest('base64url').slice(0, 32);

function waitText(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** The limits in force: the defaults, with the sign-in and two-factor account and address limits as configured. */
function limitsOf(ctx: AppContext): Record<ThrottlePurpose, PurposeLimits> {
  const { accountMax, addressMax } = ctx.config.signInLimits;
  const configured = (l: PurposeLimits): PurposeLimits => ({
    ...l,
    account: { ...l.account, max: accountMax },
    address: { ...l.address, max: addressMax },
  });
  return { login: configured(LIMITS.login), tfa: configured(LIMITS.tfa), forgotten: LIMITS.forgotten };
}

export function throttleService(ctx: AppContext) {
  const repo = throttleRepo(ctx.db.kysely);
  const limits = limitsOf(ctx);
  let sincePurge = 0;

  /** Counts the attempt on a counter; answers how long to wait when it is over its limit (0: not over). */
  async function count(key: string, limit: Limit | undefined): Promise<number> {
    if (!limit) return 0;
    const { hits, retrySeconds } = await repo.hit(key, limit.windowSeconds);
    return hits > limit.max ? retrySeconds : 0;
  }

  return {
    /** The counter keys of one attempt; account and address are stored only as digests. */
    keys(purpose: ThrottlePurpose, account: string, address: string | null): AttemptKeys {
      const who = digest(account.trim().toLowerCase());
      const where = digest(address ?? 'unknown');
      return {
        purpose,
        accountAddress: `${purpose}:account-address:${digest(`${who}/${where}`)}`,
        account: `${purpose}:account:${who}`,
        address: `${purpose}:address:${where}`,
      };
    },

    /** Counts an attempt against every counter and refuses it (429 with Retry-After) once any is over its limit. */
    async hit(keys: AttemptKeys): Promise<void> {
      const purpose = limits[keys.purpose];
      const waits = [
        await count(keys.accountAddress, purpose.accountAddress),
        await count(keys.account, purpose.account),
        await count(keys.address, purpose.address),
      ];
      sincePurge += 1;
      if (sincePurge >= 200) {
        sincePurge = 0;
        await repo.purgeOlderThan(24 * HOUR);
      }
      const wait = Math.max(...waits);
      if (wait > 0) {
        const error = tooMany(`${MESSAGES[keys.purpose]} Please try again in ${waitText(wait)}.`);
        error.retryAfterSeconds = wait;
        throw error;
      }
    },

    /** After a success: the account starts afresh and the address gets its attempt back. */
    async succeeded(keys: AttemptKeys): Promise<void> {
      await repo.clear(keys.accountAddress);
      await repo.clear(keys.account);
      await repo.undo(keys.address);
    },
  };
}

export type ThrottleService = ReturnType<typeof throttleService>;
