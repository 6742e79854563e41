import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, totpCode, totpSetup, totpStep } from './tfa.ts';

describe('TOTP', () => {
  const secret = newTotpSecret();
  const t0 = Date.UTC(2026, 0, 1, 12, 0, 0);

  it('makes base32 secrets of 160 bits', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
  });

  it('accepts the current code and its neighbours, each at its own step', () => {
    const step = Math.floor(t0 / 30_000);
    expect(totpStep(secret, totpCode(secret, t0), t0)).toBe(step);
    expect(totpStep(secret, totpCode(secret, t0 - 30_000), t0)).toBe(step - 1);
    expect(totpStep(secret, totpCode(secret, t0 + 30_000), t0)).toBe(step + 1);
  });

  it('refuses codes two steps away and wrong codes', () => {
    expect(totpStep(secret, totpCode(secret, t0 - 60_000), t0)).toBeNull();
    const wrong = String((Number(totpCode(secret, t0)) + 1) % 1_000_000).padStart(6, '0');
    expect(totpStep(secret, wrong, t0)).toBeNull();
  });

  it('answers the RFC 6238 test vector (SHA-1, 59 s → 94287082 truncated to 6 digits)', () => {
    const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890" in base32
    expect(totpCode(rfcSecret, 59_000)).toBe('287082');
  });

  it('gives an otpauth QR image and the secret for setup', async () => {
    const setup = await totpSetup(secret, 'jane.doe');
    expect(setup.secret).toBe(secret);
    expect(setup.qrcode).toMatch(/^data:image\/png;base64,/);
  });
});

describe('recovery codes', () => {
  it('makes ten distinct codes of ten characters without look-alikes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-hjkmnp-z2-9]{10}$/);
  });

  it('hashes with the key, ignoring case, spaces and dashes', () => {
    const key = crypto.randomBytes(32);
    const h = hashRecoveryCode(key, 'abcde23456');
    expect(hashRecoveryCode(key, ' ABCDE-23456 ')).toBe(h);
    expect(h).not.toContain('abcde23456');
    expect(hashRecoveryCode(crypto.randomBytes(32), 'abcde23456')).not.toBe(h);
  });
});
