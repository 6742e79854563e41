import crypto from 'node:crypto';
import { IMPORT_TITLE } from '@gdb/shared/routes/web-routes';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
const PERIOD = 30;
const DIGITS = 6;
/** One step either side is accepted, for clocks that drift a little. */
const WINDOW = 1;

const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

/** A fresh TOTP secret in base32, as it is shown to the user and stored (encrypted). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label = 'account'): TOTP {
  return new TOTP({
    issuer: IMPORT_TITLE,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** What the setup dialog shows: the secret and a QR image (data URL) of its otpauth:// address. */
export async function totpSetup(secretBase32: string, userName: string): Promise<{ secret: string; qrcode: string }> {
  const uri = totp(secretBase32, userName).toString();
  return { secret: secretBase32, qrcode: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) };
}

/** The code of a secret at a time (tests and tools use it). */
export function totpCode(secretBase32: string, timestamp = Date.now()): string {
  return totp(secretBase32).generate({ timestamp });
}

/** The time step the code belongs to, or null when it is not valid now. */
export function totpStep(secretBase32: string, code: string, timestamp = Date.now()): number | null {
  const delta = totp(secretBase32).validate({ token: code, timestamp, window: WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: PERIOD, timestamp }) + delta;
}

/** Ten single-use recovery codes of ten characters (lower-case letters and digits, no look-alikes). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[crypto.randomInt(RECOVERY_ALPHABET.length)]).join(''),
  );
}

/** Recovery codes are stored as keyed hashes; spaces, dashes and case do not matter when typed. */
export function hashRecoveryCode(key: Buffer, code: string): string {
  const clean = code.replace(/[\s-]/g, '').toLowerCase();
  return crypto.createHmac('sha256', key).update(`recovery:${clean}`).digest('base64url');
}
