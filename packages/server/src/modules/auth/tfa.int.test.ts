import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/test-app.ts';
import { encrypt } from '../../platform/auth/secrets.ts';
import { newTotpSecret, totpCode } from './tfa.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ tfaRequired: 'admins' });
});
afterAll(async () => {
  await t.close();
});

const login = (userName: string) => t.call('POST', '/users/login', { body: { username: userName, password: TEST_PASSWORD } });
const tfa = (_id: string, code: string) => t.call('POST', '/users/tfa', { body: { _id, code } });

/** Signs in through the first setup and answers the secret, the token and the recovery codes. */
async function setUp(roles: Parameters<TestApp['createUser']>[0]) {
  const user = await t.createUser(roles);
  const first = await login(user.user_name);
  const { _id, secret } = first.body.data.tfa;
  const done = await tfa(_id, totpCode(secret));
  expect(done.status).toBe(200);
  return {
    user,
    secret: secret as string,
    token: done.body.data.token.value as string,
    codes: done.body.data.recoveryCodes as string[],
  };
}

describe('two-factor sign-in', () => {
  it('shows an admin the setup at the first sign-in, then answers ten recovery codes once', async () => {
    const admin = await t.createUser(['admin']);
    const first = await login(admin.user_name);
    expect(first.status).toBe(200);
    expect(first.body.data.token).toBeNull();
    expect(first.body.data.refreshToken).toBeNull();
    const { _id, secret, qrcode } = first.body.data.tfa;
    expect(_id).toEqual(expect.any(String));
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(qrcode).toMatch(/^data:image\/png;base64,/);

    const stored = await t.ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', admin.id).executeTakeFirstOrThrow();
    expect(stored.tfa_secret).not.toContain(secret);
    expect(stored.tfa_enabled).toBe(false);

    const done = await tfa(_id, totpCode(secret));
    expect(done.status).toBe(200);
    expect(done.body.data.recoveryCodes).toHaveLength(10);
    expect(done.body.data.goNocode).toBe(false);
    expect(typeof done.body.data.refreshToken).toBe('string');
    const info = await t.call('GET', '/users/info', { token: done.body.data.token.value });
    expect(info.body.data.user._id).toBe(admin.id);

    const after = await t.ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', admin.id).executeTakeFirstOrThrow();
    expect(after.tfa_enabled).toBe(true);
    expect(after.recovery_codes).toHaveLength(10);
    for (const code of done.body.data.recoveryCodes) expect(after.recovery_codes.join(' ')).not.toContain(code);
  });

  it('shows the same secret again while the setup is not finished', async () => {
    const admin = await t.createUser(['super-admin']);
    const a = (await login(admin.user_name)).body.data.tfa;
    const b = (await login(admin.user_name)).body.data.tfa;
    expect(b.secret).toBe(a.secret);
    expect(b._id).not.toBe(a._id);
  });

  it('asks later sign-ins for a code only, and never accepts a code twice', async () => {
    const { user, secret } = await setUp(['admin']);
    const again = await login(user.user_name);
    expect(again.body.data.tfa).toEqual({ _id: expect.any(String) });
    const replay = await tfa(again.body.data.tfa._id, totpCode(secret));
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe('Invalid two-factor code.');
    expect(replay.body.code).not.toBe(50008);
    const next = await tfa(again.body.data.tfa._id, totpCode(secret, Date.now() + 30_000));
    expect(next.status).toBe(200);
    expect(next.body.data.recoveryCodes).toBeNull();
  });

  it('accepts a recovery code once', async () => {
    const { user, codes } = await setUp(['admin', 'manager']);
    const code = codes[3] ?? '';
    const first = await login(user.user_name);
    const used = await tfa(first.body.data.tfa._id, code.toUpperCase());
    expect(used.status).toBe(200);
    expect(used.body.data.recoveryCodes).toBeNull();
    const second = await login(user.user_name);
    const reused = await tfa(second.body.data.tfa._id, code);
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe('Invalid two-factor code.');
    const other = await tfa(second.body.data.tfa._id, codes[4] ?? '');
    expect(other.status).toBe(200);
  });

  it('refuses recovery codes before the setup is finished', async () => {
    const admin = await t.createUser(['admin']);
    const first = await login(admin.user_name);
    const res = await tfa(first.body.data.tfa._id, 'abcdefghjk');
    expect(res.status).toBe(401);
  });

  it('spends the two-factor step on success and refuses unknown ones', async () => {
    const { user, secret } = await setUp(['admin']);
    const step = (await login(user.user_name)).body.data.tfa._id;
    expect((await tfa(step, totpCode(secret, Date.now() + 30_000))).status).toBe(200);
    const reused = await tfa(step, totpCode(secret, Date.now() + 30_000));
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe('The two-factor step has expired, please sign in again.');
    expect((await tfa('not-a-real-step', '123456')).status).toBe(401);
  });

  it('refuses codes shorter than 6 or longer than 10 characters', async () => {
    expect((await tfa('x', '12345')).status).toBe(422);
    expect((await tfa('x', '12345678901')).status).toBe(422);
  });

  it('lets a user or manager sign in without a second factor when only admins need it', async () => {
    for (const roles of [['user'], ['manager']] as const) {
      const u = await t.createUser([...roles]);
      const res = await login(u.user_name);
      expect(res.body.data.tfa).toBeNull();
      expect(res.body.data.token.value).toEqual(expect.any(String));
    }
  });

  it('resets two-factor for an admin: the message, the sessions end, and the next sign-in sets it up again', async () => {
    const boss = await setUp(['super-admin']);
    const target = await setUp(['admin']);
    const res = await t.call('POST', '/users/reset-tfa', { token: boss.token, body: { _id: target.user.id } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('ResetTFA successful for the user.');
    expect((await t.call('GET', '/users/info', { token: target.token })).body.code).toBe(50012);
    const next = await login(target.user.user_name);
    expect(next.body.data.tfa.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(next.body.data.tfa.secret).not.toBe(target.secret);
  });
});

describe('two-factor settings', () => {
  it('asks everyone when TFA_REQUIRED is all', async () => {
    const all = await createTestApp({ tfaRequired: 'all' });
    try {
      const u = await all.createUser(['user']);
      const res = await all.call('POST', '/users/login', { body: { username: u.user_name, password: TEST_PASSWORD } });
      expect(res.body.data.token).toBeNull();
      expect(res.body.data.tfa.secret).toEqual(expect.any(String));
    } finally {
      await all.close();
    }
  });

  it('asks no one when TFA_REQUIRED is none, except accounts that set it up', async () => {
    const none = await createTestApp({ tfaRequired: 'none' });
    try {
      const admin = await none.createUser(['super-admin']);
      const direct = await none.call('POST', '/users/login', { body: { username: admin.user_name, password: TEST_PASSWORD } });
      expect(direct.body.data.tfa).toBeNull();
      const secret = newTotpSecret();
      await none.ctx.db.kysely
        .updateTable('users')
        .set({ tfa_secret: encrypt(none.ctx.secrets.encryptionKey, secret), tfa_enabled: true })
        .where('id', '=', admin.id)
        .execute();
      const asked = await none.call('POST', '/users/login', { body: { username: admin.user_name, password: TEST_PASSWORD } });
      expect(asked.body.data.token).toBeNull();
      const done = await none.call('POST', '/users/tfa', { body: { _id: asked.body.data.tfa._id, code: totpCode(secret) } });
      expect(done.status).toBe(200);
    } finally {
      await none.close();
    }
  });
});
