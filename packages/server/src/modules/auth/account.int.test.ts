import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/test-app.ts';
import { passwordLinkIn, startTestSmtp } from '../../platform/mail/smtp-test-server.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
let admin: { token: string };

beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({ smtpUrl: smtp.url, publicUrl: 'https://gdb.example.test' });
  admin = await t.signedIn(['super-admin']);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let n = 0;
/** Creates a user through the Users screen's call and answers it with the mail it received. */
async function createThroughApi() {
  n += 1;
  const before = smtp.received.length;
  const email = `new.person${n}@example.test`;
  const res = await t.call('POST', '/users', {
    token: admin.token,
    body: { firstName: 'Newbie', lastName: `Person${n}x`, email, roles: ['manager'] },
  });
  expect(res.status).toBe(200);
  const mail = await smtp.waitFor(email, before);
  return { user: res.body.data, mail, link: passwordLinkIn(mail) };
}

const createPassword = (token: string, password: string) =>
  t.call('POST', '/users/create-password', { body: { token, password } });

describe('create password', () => {
  it('mails a new user a link to /create-password with the token and user name', async () => {
    const { user, mail, link } = await createThroughApi();
    expect(link.origin).toBe('https://gdb.example.test');
    expect(link.pathname).toBe('/create-password');
    expect(link.searchParams.get('un')).toBe(user.userName);
    expect(link.searchParams.get('t')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(mail.text).toContain('Subject: Your GDB Importer account');
    const rows = await t.ctx.db.kysely.selectFrom('password_tokens').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).not.toContain(link.searchParams.get('t'));
  });

  it('refuses weak passwords with the spec words, then sets a good one once', async () => {
    const { user, link } = await createThroughApi();
    const token = link.searchParams.get('t') ?? '';
    const weak = await createPassword(token, 'abcdefgh');
    expect(weak.status).toBe(422);
    expect(weak.body.message).toBe(
      'The password must contain at least one lowercase, one uppercase, one digit and a special character',
    );
    // The message asks for a lowercase and an uppercase letter: one case alone is refused.
    for (const oneCase of ['password1!', 'PASSWORD1!']) {
      expect((await createPassword(token, oneCase)).body.message).toBe(weak.body.message);
    }
    const withPart = await createPassword(token, 'Newbie#2026');
    expect(withPart.body.message).toBe('The password should not contain a part of the username');
    const withName = await createPassword(token, `X${user.userName}#1`);
    expect(withName.body.message).toBe('The password should not contain the username');

    const good = await createPassword(token, 'Corr3ct!Horse');
    expect(good.status).toBe(200);
    expect(good.body.message).toBe('The password has been successfully set.');
    expect(await t.login(user.userName, 'Corr3ct!Horse')).toEqual(expect.any(String));

    const again = await createPassword(token, 'An0ther!Pass');
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('invalid or expired token.');
  });

  it('refuses an expired link and an unknown one', async () => {
    const { link } = await createThroughApi();
    const token = link.searchParams.get('t') ?? '';
    await t.ctx.db.kysely
      .updateTable('password_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    expect((await createPassword(token, 'Corr3ct!Horse')).body.message).toBe('invalid or expired token.');
    expect((await createPassword('made-up-token', 'Corr3ct!Horse')).body.message).toBe('invalid or expired token.');
  });

  it('reset by an admin: clears the password, ends sessions, mails a new link that works', async () => {
    const target = await t.signedIn(['user']);
    const before = smtp.received.length;
    const res = await t.call('POST', '/users/reset-password', { token: admin.token, body: { _id: target.user.id } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Password reset successful for the user.');
    expect((await t.call('GET', '/users/info', { token: target.token })).body.code).toBe(50012);
    const old = await t.call('POST', '/users/login', { body: { username: target.user.user_name, password: TEST_PASSWORD } });
    expect(old.status).toBe(401);
    const mail = await smtp.waitFor(target.user.email, before);
    expect(mail.text).toContain('Subject: Reset your GDB Importer password');
    const ok = await createPassword(passwordLinkIn(mail).searchParams.get('t') ?? '', 'Fresh!Start9');
    expect(ok.status).toBe(200);
    expect(await t.login(target.user.user_name, 'Fresh!Start9')).toEqual(expect.any(String));
  });

  it('a newer link replaces the older one', async () => {
    const target = await t.createUser(['user']);
    const links: string[] = [];
    for (let i = 0; i < 2; i++) {
      const before = smtp.received.length;
      await t.call('POST', '/users/reset-password', { token: admin.token, body: { _id: target.id } });
      links.push(passwordLinkIn(await smtp.waitFor(target.email, before)).searchParams.get('t') ?? '');
    }
    expect((await createPassword(links[0] ?? '', 'Fresh!Start9')).body.message).toBe('invalid or expired token.');
    expect((await createPassword(links[1] ?? '', 'Fresh!Start9')).status).toBe(200);
  });
});

describe('forgotten password', () => {
  const ASKED =
    'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.';

  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const user = await t.createUser(['user']);
    const before = smtp.received.length;
    const known = await t.call('POST', '/users/forgotten', { body: { email: user.email.toUpperCase() } });
    const unknown = await t.call('POST', '/users/forgotten', { body: { email: 'nobody@example.test' } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.message).toBe(ASKED);
    await t.services.accounts.settled();
    const mail = await smtp.waitFor(user.email, before);
    expect(smtp.received.slice(before).some((m) => m.to.includes('nobody@example.test'))).toBe(false);
    const token = passwordLinkIn(mail).searchParams.get('t') ?? '';
    expect((await createPassword(token, 'Rec0vered!x')).status).toBe(200);
    expect(await t.login(user.user_name, 'Rec0vered!x')).toEqual(expect.any(String));
  });

  it('answers before the mail is sent, so a known address takes no longer than an unknown one', async () => {
    // A mail server that takes a second: an answer that waited for it would stand out from a busy
    // machine's noise (a few hundred ms on two cores shared with the browser tests).
    const slow = await startTestSmtp({ delayMs: 1000 });
    const other = await createTestApp({ smtpUrl: slow.url });
    try {
      const user = await other.createUser(['user']);
      const time = async (email: string) => {
        const start = performance.now();
        const res = await other.call('POST', '/users/forgotten', { body: { email } });
        const ms = performance.now() - start;
        await other.services.accounts.settled();
        expect(res.status).toBe(200);
        return ms;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      for (const i of [1, 2, 3]) {
        known.push(await time(user.email));
        unknown.push(await time(`ghost${i}@example.test`));
      }
      expect(Math.min(...known)).toBeLessThan(500);
      expect(Math.abs(Math.min(...known) - Math.min(...unknown))).toBeLessThan(500);
      expect(slow.received.filter((m) => m.to.includes(user.email))).toHaveLength(3);
    } finally {
      await other.close();
      await slow.close();
    }
  });

  it('requires a well-formed email', async () => {
    expect((await t.call('POST', '/users/forgotten', { body: { email: '' } })).status).toBe(422);
    const bad = await t.call('POST', '/users/forgotten', { body: { email: 'not-an-email' } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Please input correct email address');
  });
});

describe('without SMTP_URL', () => {
  it('writes the mail under DATA_DIR/outbox and logs the link', async () => {
    const local = await createTestApp();
    try {
      const boss = await local.signedIn(['super-admin']);
      const res = await local.call('POST', '/users', {
        token: boss.token,
        body: { firstName: 'Outbox', lastName: 'Person', email: 'outbox.person@example.test', roles: ['user'], admin_tags: [] },
      });
      expect(res.status).toBe(200);
      const dir = path.join(local.dataDir, 'outbox');
      const files = fs.readdirSync(dir);
      expect(files).toHaveLength(1);
      const eml = fs.readFileSync(path.join(dir, files[0] ?? ''), 'utf8');
      expect(eml).toContain('To: outbox.person@example.test');
    } finally {
      await local.close();
    }
  });
});
