import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/test-app.ts';
import { type BuiltApp, buildApp } from '../../app.ts';
import { loadConfig } from '../../platform/config.ts';
import { totpCode } from './tfa.ts';
import { LIMITS } from './throttle.service.ts';

// The per-address limit is a setting: a lower one than the default keeps these tests short.
const ADDRESS_MAX = 45;
const signInLimits = { accountMax: LIMITS.login.account.max, addressMax: ADDRESS_MAX };

let t: TestApp;
let second: BuiltApp;
beforeAll(async () => {
  t = await createTestApp({ tfaRequired: 'admins', signInLimits });
  // A second server instance on the same database, as a cluster runs them.
  second = await buildApp(loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent' }, { tfaRequired: 'admins', signInLimits }), {
    db: t.ctx.db,
    web: false,
  });
  await second.app.ready();
});
afterAll(async () => {
  await second.app.close();
  await t.close();
});

async function post(app: BuiltApp, url: string, body: unknown, ip: string) {
  const res = await app.app.inject({ method: 'POST', url: `${BASE}${url}`, payload: body as object, remoteAddress: ip });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}
const login = (app: BuiltApp, ip: string, username: string, password: string) =>
  post(app, '/users/login', { username, password }, ip);

describe('sign-in limits', () => {
  it('refuses an account from an address after 5 failures from it, even with the right password; not from elsewhere', async () => {
    const u = await t.createUser(['user']);
    for (let i = 0; i < LIMITS.login.accountAddress.max; i++) {
      expect((await login(t, '10.0.0.1', u.user_name, 'wrong-password')).status).toBe(401);
    }
    const blocked = await login(t, '10.0.0.1', u.user_name, TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe(42900);
    expect(blocked.body.message).toBe('Too many failed sign-in attempts. Please try again in 15 minutes.');
    expect(blocked.headers['retry-after']).toMatch(/^(89\d|900)$/);
    // The account's owner, elsewhere, still signs in; so does a colleague behind the same address.
    expect((await login(t, '10.0.0.2', u.user_name, TEST_PASSWORD)).status).toBe(200);
    const other = await t.createUser(['user']);
    expect((await login(t, '10.0.0.1', other.user_name, TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses an account guessed from many addresses past its own limit, everywhere', async () => {
    const u = await t.createUser(['user']);
    for (let i = 0; i < LIMITS.login.account.max; i++) {
      expect((await login(t, `10.0.5.${i}`, u.user_name, 'wrong-password')).status).toBe(401);
    }
    expect((await login(t, '10.0.5.250', u.user_name, TEST_PASSWORD)).status).toBe(429);
  });

  it('counts the failures of every server instance together', async () => {
    const u = await t.createUser(['manager']);
    for (let i = 0; i < 3; i++) await login(t, '10.0.1.1', u.user_name, 'wrong-password');
    for (let i = 0; i < 2; i++) await login(second, '10.0.1.1', u.user_name, 'wrong-password');
    expect((await login(t, '10.0.1.1', u.user_name, TEST_PASSWORD)).status).toBe(429);
    expect((await login(second, '10.0.1.1', u.user_name, TEST_PASSWORD)).status).toBe(429);
  });

  it('starts an account afresh after a success', async () => {
    const u = await t.createUser(['user']);
    for (let i = 0; i < 4; i++) await login(t, '10.0.2.1', u.user_name, 'wrong-password');
    expect((await login(t, '10.0.2.1', u.user_name, TEST_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) await login(t, '10.0.2.1', u.user_name, 'wrong-password');
    expect((await login(t, '10.0.2.1', u.user_name, TEST_PASSWORD)).status).toBe(200);
  });

  it('lets a colleague behind the same address sign in after 40 failures on another account', async () => {
    const unlucky = await t.createUser(['user']);
    const colleague = await t.createUser(['user']);
    for (let i = 0; i < 40; i++) await login(i % 2 ? t : second, '10.0.6.1', unlucky.user_name, 'wrong-password');
    expect((await login(t, '10.0.6.1', unlucky.user_name, TEST_PASSWORD)).status).toBe(429);
    expect((await login(t, '10.0.6.1', colleague.user_name, TEST_PASSWORD)).status).toBe(200);
  });

  it('refuses a client address past its limit of failures on any accounts, with Retry-After, not the other addresses', async () => {
    const good = await t.createUser(['user']);
    for (let i = 0; i < ADDRESS_MAX; i++) {
      const res = await login(i % 2 ? t : second, '10.0.3.1', `someone${i}.guessed`, 'wrong-password');
      expect(res.status).toBe(401);
    }
    const blocked = await login(t, '10.0.3.1', good.user_name, TEST_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(t, '10.0.3.2', good.user_name, TEST_PASSWORD)).status).toBe(200);
  });

  it('starts a new window once the old one is over', async () => {
    const u = await t.createUser(['user']);
    for (let i = 0; i < 6; i++) await login(t, '10.0.4.1', u.user_name, 'wrong-password');
    expect((await login(t, '10.0.4.1', u.user_name, TEST_PASSWORD)).status).toBe(429);
    await t.ctx.db.kysely
      .updateTable('auth_throttle')
      .set({ window_start: new Date(Date.now() - 16 * 60 * 1000) })
      .execute();
    expect((await login(t, '10.0.4.1', u.user_name, TEST_PASSWORD)).status).toBe(200);
  });
});

describe('behind a reverse proxy', () => {
  it('counts the address the nearest proxy saw, whatever the client wrote in X-Forwarded-For', async () => {
    const proxied = await buildApp(
      loadConfig({ DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', TRUST_PROXY: 'true' }, { signInLimits }),
      {
        db: t.ctx.db,
        web: false,
      },
    );
    const viaProxy = (forged: string, username: string, password: string) =>
      proxied.app.inject({
        method: 'POST',
        url: `${BASE}/users/login`,
        payload: { username, password },
        remoteAddress: '10.5.0.1',
        // The proxy appends the address it saw to what the client sent.
        headers: { 'x-forwarded-for': `${forged}, 203.0.113.7` },
      });
    try {
      const good = await t.createUser(['user']);
      for (let i = 0; i < ADDRESS_MAX; i++) {
        expect((await viaProxy(`198.51.100.${i}`, `someone${i}.forged`, 'wrong-password')).statusCode).toBe(401);
      }
      expect((await viaProxy('198.51.100.250', good.user_name, TEST_PASSWORD)).statusCode).toBe(429);
    } finally {
      await proxied.app.close();
    }
  });
});

describe('two-factor limits', () => {
  it('refuses more codes from an address after 5 wrong ones, even the right one', async () => {
    const admin = await t.createUser(['admin']);
    const first = await login(t, '10.1.0.1', admin.user_name, TEST_PASSWORD);
    const { _id, secret } = first.body.data.tfa;
    for (let i = 0; i < LIMITS.tfa.accountAddress.max; i++) {
      expect((await post(t, '/users/tfa', { _id, code: '000000' }, '10.1.0.1')).status).toBe(401);
    }
    const blocked = await post(second, '/users/tfa', { _id, code: totpCode(secret) }, '10.1.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many wrong two-factor codes. Please try again in 15 minutes.');
  });
});

describe('forgotten-password limits', () => {
  it('takes 3 requests per address per hour, whether the address exists or not', async () => {
    for (let i = 0; i < LIMITS.forgotten.account.max; i++) {
      expect((await post(t, '/users/forgotten', { email: 'ghost@example.test' }, `10.2.0.${i}`)).status).toBe(200);
    }
    const blocked = await post(second, '/users/forgotten', { email: 'GHOST@example.test' }, '10.2.0.9');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe('Too many password recovery requests. Please try again in 60 minutes.');
  });

  it('takes 10 requests per client address per hour', async () => {
    for (let i = 0; i < LIMITS.forgotten.address.max; i++) {
      expect((await post(t, '/users/forgotten', { email: `someone${i}@example.test` }, '10.2.1.1')).status).toBe(200);
    }
    expect((await post(t, '/users/forgotten', { email: 'fresh@example.test' }, '10.2.1.1')).status).toBe(429);
    expect((await post(t, '/users/forgotten', { email: 'fresh@example.test' }, '10.2.1.2')).status).toBe(200);
    await t.services.accounts.settled();
  });
});

describe('stored counters', () => {
  it('keep neither user names nor addresses in clear', async () => {
    // A failure of each kind counted: a sign-in, a two-factor code, a password recovery request.
    const u = await t.createUser(['user']);
    expect((await login(t, '10.3.0.1', u.user_name, 'wrong-password')).status).toBe(401);
    const admin = await t.createUser(['admin']);
    const { _id } = (await login(t, '10.3.0.1', admin.user_name, TEST_PASSWORD)).body.data.tfa;
    expect((await post(t, '/users/tfa', { _id, code: '000000' }, '10.3.0.1')).status).toBe(401);
    expect((await post(t, '/users/forgotten', { email: 'counted@example.test' }, '10.3.0.1')).status).toBe(200);
    await t.services.accounts.settled();
    const rows = await t.ctx.db.kysely.selectFrom('auth_throttle').select('key').execute();
    const keys = rows.map((r) => r.key);
    for (const kind of ['login', 'tfa', 'forgotten'])
      expect(
        keys.some((key) => key.startsWith(`${kind}:`)),
        kind,
      ).toBe(true);
    for (const key of keys) expect(key).toMatch(/^(login|tfa|forgotten):(account|address|account-address):[A-Za-z0-9_-]{32}$/);
  });
});
