import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/test-app.ts';
import { signAccessToken } from '../../platform/auth/access-token.ts';
import { newId } from '../../platform/ids.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function loginAnswer(userName: string, password = TEST_PASSWORD) {
  return t.call('POST', '/users/login', { body: { username: `  ${userName} `, password } });
}

describe('sign-in and sessions', () => {
  it('signs in with a trimmed user name and answers a token pair', async () => {
    const user = await t.createUser(['manager']);
    const res = await loginAnswer(user.user_name);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(20000);
    const { token, refreshToken, tfa, goNocode } = res.body.data;
    expect(token.value.split('.')).toHaveLength(3);
    expect(token.expireAt).toBeGreaterThan(Date.now());
    expect(typeof refreshToken).toBe('string');
    expect(tfa).toBeNull();
    expect(goNocode).toBe(false);
  });

  it('refuses a wrong password and an unknown user with the same message', async () => {
    const user = await t.createUser(['user']);
    const wrong = await loginAnswer(user.user_name, 'not-the-password');
    const unknown = await loginAnswer('nobody.here');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect(wrong.body.code).not.toBe(50008);
  });

  it('refuses a disabled account', async () => {
    const user = await t.createUser(['user'], { isActive: false });
    const res = await loginAnswer(user.user_name);
    expect(res.status).toBe(403);
  });

  it('answers the signed-in user with roles and mime types', async () => {
    const { user, token } = await t.signedIn(['admin', 'manager']);
    const res = await t.call('GET', '/users/info', { token });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      _id: user.id,
      firstName: user.first_name,
      lastName: user.last_name,
      role: 'admin,manager',
      roles: [{ name: 'admin' }, { name: 'manager' }],
    });
    expect(res.body.data.mimetypes.csv).toContain('text/csv');
  });

  it('answers 50008 without a token or with a forged one', async () => {
    expect((await t.call('GET', '/users/info')).body.code).toBe(50008);
    const forged = await signAccessToken(new Uint8Array(32), { userId: 'x', sessionId: 'y' }, 60);
    const res = await t.call('GET', '/users/info', { token: forged.value });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(50008);
  });

  it('answers 50014 for an expired access token', async () => {
    const { user, token } = await t.signedIn(['user']);
    const valid = await t.call('GET', '/users/info', { token });
    expect(valid.status).toBe(200);
    const session = await t.ctx.db.kysely
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    const expired = await signAccessToken(t.ctx.secrets.tokenKey, { userId: user.id, sessionId: session.id }, -10);
    const res = await t.call('GET', '/users/info', { token: expired.value });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(50014);
  });

  it('rotates refresh tokens and revokes the session when an old one is reused', async () => {
    const user = await t.createUser(['user']);
    const first = (await loginAnswer(user.user_name)).body.data;
    const second = await t.call('POST', '/users/refresh-token', { body: { refreshToken: first.refreshToken } });
    expect(second.status).toBe(200);
    expect(second.body.data.refreshToken).not.toBe(first.refreshToken);
    const newToken = second.body.data.token.value;
    expect((await t.call('GET', '/users/info', { token: newToken })).status).toBe(200);

    const reuse = await t.call('POST', '/users/refresh-token', { body: { refreshToken: first.refreshToken } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe(50012);
    const after = await t.call('GET', '/users/info', { token: newToken });
    expect(after.body.code).toBe(50012);
    const third = await t.call('POST', '/users/refresh-token', { body: { refreshToken: second.body.data.refreshToken } });
    expect(third.body.code).toBe(50012);
  });

  it('stores refresh tokens only as hashes', async () => {
    const user = await t.createUser(['user']);
    const { refreshToken } = (await loginAnswer(user.user_name)).body.data;
    const rows = await t.ctx.db.kysely.selectFrom('refresh_tokens').select('token_hash').execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.token_hash)).not.toContain(refreshToken);
  });

  it('ends the session on logout', async () => {
    const { token } = await t.signedIn(['manager']);
    const out = await t.call('POST', '/users/logout', { token });
    expect(out.status).toBe(200);
    const res = await t.call('GET', '/users/info', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(50012);
  });

  it('cuts off a user deactivated after signing in', async () => {
    const { user, token } = await t.signedIn(['user']);
    await t.ctx.db.kysely.updateTable('users').set({ is_active: false }).where('id', '=', user.id).execute();
    const res = await t.call('GET', '/users/info', { token });
    expect(res.status).toBe(401);
  });
});

describe('first start', () => {
  it('creates the first super-admin once, with a generated strong password when none is configured', async () => {
    const other = await createTestApp();
    try {
      const created = await other.services.users.ensureFirstAdmin();
      expect(created?.userName).toBe('super.admin');
      const password = created?.generatedPassword ?? '';
      expect(password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^A-Za-z\d]).{20}$/);
      expect(await other.services.users.ensureFirstAdmin()).toBeNull();
      const token = await other.login('super.admin', password);
      const info = await other.call('GET', '/users/info', { token });
      expect(info.body.data.user.roles).toEqual([{ name: 'super-admin' }]);
    } finally {
      await other.close();
    }
  });

  it('uses ADMIN_USERNAME, ADMIN_PASSWORD and ADMIN_EMAIL when they are set', async () => {
    const other = await createTestApp({
      admin: { username: 'chief.admin', password: 'Chief!Adm1n', email: 'chief@example.test' },
    });
    try {
      expect(await other.services.users.ensureFirstAdmin()).toEqual({ userName: 'chief.admin' });
      const token = await other.login('chief.admin', 'Chief!Adm1n');
      expect((await other.call('GET', '/users/info', { token })).body.data.user.email).toBe('chief@example.test');
    } finally {
      await other.close();
    }
  });
});

describe('open sessions', () => {
  it('answers the sessions neither revoked nor expired whose user is active', async () => {
    const [open, revoked, disabled, expired] = await Promise.all([1, 2, 3, 4].map(() => t.signedIn(['user'])));
    const sessionOf = async (x: { token: string } | undefined) => (await t.services.auth.authenticate(x?.token ?? '')).sessionId;
    const ids = [await sessionOf(open), await sessionOf(revoked), await sessionOf(disabled), await sessionOf(expired)];
    const k = t.ctx.db.kysely;
    await t.services.auth.revokeUserSessions(revoked?.user.id ?? '');
    await k
      .updateTable('users')
      .set({ is_active: false })
      .where('id', '=', disabled?.user.id ?? '')
      .execute();
    await k
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', ids[3] ?? '')
      .execute();
    expect(await t.services.auth.openSessions([...ids, newId()])).toEqual(new Set([ids[0]]));
    expect(await t.services.auth.openSessions([])).toEqual(new Set());
  });
});
