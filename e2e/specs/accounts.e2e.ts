// Accounts as people use them, on a server that requires two-factor for everyone and mails through
// a real SMTP server: badges, a user created by an admin, the emailed password link, two-factor
// setup, recovery codes used once, and users de-activated in bulk.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../packages/server/src/modules/auth/tfa.ts';
import { passwordLinkIn, startTestSmtp } from '../../packages/server/src/platform/mail/smtp-test-server.ts';
import { closePage, launchBrowser, newPage, type TestPage, waitForPage } from '../support/browser.ts';
import { type SpecServer, startSpecServer } from '../support/server.ts';
import { E2E_PASSWORD, USERS } from '../support/users.ts';

let smtp: Awaited<ReturnType<typeof startTestSmtp>>;
let server: SpecServer;
let browser: Browser;
/** The super-admin's session, kept for the whole file (a TOTP code is accepted only once). */
let admin: TestPage;
let pages: TestPage[] = [];

async function open(): Promise<Page> {
  const t = await newPage(browser, server.baseUrl);
  pages.push(t);
  return t.page;
}

async function typeCredentials(page: Page, userName: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByPlaceholder('firstname.lastname').fill(userName);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

const tfaDialog = (page: Page) => page.getByRole('dialog', { name: 'Two-Factor Authentication' });

/**
 * Signs in on the two-factor server: types the code of the secret the setup shows and reads the
 * recovery codes it answers once, then leaves the dialog with OK.
 */
async function signInWithSetup(page: Page, userName: string, password = E2E_PASSWORD): Promise<string[]> {
  await typeCredentials(page, userName, password);
  const dialog = tfaDialog(page);
  await dialog.waitFor();
  await expect(dialog.getByRole('img', { name: 'QR code of the two-factor secret' }).getAttribute('src')).resolves.toMatch(
    /^data:image\/png;base64,/,
  );
  const secret = ((await dialog.locator('.gdb-tfa-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]+$/);
  await dialog.getByPlaceholder('6-digit code').fill(totpCode(secret));
  await dialog.getByPlaceholder('6-digit code').press('Enter');
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const codes = (await list.locator('li').allTextContents()).map((c) => c.trim());
  await page.getByRole('button', { name: 'OK', exact: true }).click();
  return codes;
}

async function signOut(page: Page, shownName: string): Promise<void> {
  await page.getByText(shownName).click();
  await page.getByText('Log Out', { exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/login');
}

async function pickOption(page: Page, field: string, option: string): Promise<void> {
  await page.getByLabel(field, { exact: true }).click();
  await page.locator(`.ant-select-item-option[title="${option}"]`).click();
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').getByText(text, { exact: true }).waitFor();

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startSpecServer({ TFA_REQUIRED: 'all', SMTP_URL: smtp.url });
  browser = await launchBrowser();
  admin = await newPage(browser, server.baseUrl);
  await signInWithSetup(admin.page, USERS.superAdmin.userName);
  await waitForPage(admin.page, '/import/upload');
}, 180_000);

afterAll(async () => {
  await admin?.context.close();
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

afterEach(async ({ task }) => {
  const failed = task.result?.state === 'fail';
  for (const [i, t] of pages.entries()) await closePage(t, `${task.name}-${i}`, failed);
  pages = [];
  if (failed) {
    const dir = path.resolve(import.meta.dirname, '../.artifacts');
    fs.mkdirSync(dir, { recursive: true });
    const name = `${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}-super-admin.png`;
    await admin.page.screenshot({ path: path.join(dir, name), fullPage: true }).catch(() => undefined);
  }
});

describe('accounts', () => {
  it('an admin given a group badge creates a user, who sets a password from the emailed link, sets up two-factor and uses a recovery code once', async () => {
    // The super-admin creates a group badge and gives it to the admin.
    const sa = admin.page;
    await sa.goto('/manage/users');
    await waitForPage(sa, '/manage/users');
    await sa.getByRole('button', { name: 'Manage global badge list' }).click();
    const list = sa.getByRole('dialog', { name: 'Manage global badge list' });
    await list.getByLabel('Badge name').fill('E2E team');
    await pickOption(sa, 'Badge type', 'Group (admin)');
    await list.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(sa, 'The badge has been saved.');
    await list.locator('.ant-modal-footer').getByRole('button', { name: 'Close', exact: true }).click();
    await sa
      .getByRole('row', { name: /ada\.admin/ })
      .getByText('ada.admin', { exact: true })
      .click();
    await sa.getByRole('dialog', { name: 'Update user' }).getByRole('button', { name: 'Manage user tags' }).click();
    const tags = sa.getByRole('dialog', { name: 'Manage user tags' });
    await tags.getByRole('group', { name: 'Admin tags' }).getByLabel('E2E team').check();
    await tags.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(sa, 'To see changes reflected in the pipeline list, please save the user and re-open this dialog');
    await sa.getByRole('dialog', { name: 'Update user' }).getByRole('button', { name: 'Confirm' }).click();
    await toast(sa, 'The user data has been updated successfully.');

    // The admin creates a user and gives it the same badge.
    const ad = await open();
    await signInWithSetup(ad, USERS.admin.userName);
    await waitForPage(ad, '/manage/users');
    await ad.getByRole('button', { name: 'Create User' }).click();
    const create = ad.getByRole('dialog', { name: 'Create user' });
    await create.getByLabel('First name').fill('Nora');
    await create.getByLabel('Last name').fill('Newcomer');
    await expect(create.getByLabel('User name').inputValue()).resolves.toBe('nora.newcomer');
    await create.getByLabel('Email').fill('nora.newcomer@example.test');
    await pickOption(ad, 'Roles', 'User');
    await create.getByRole('button', { name: 'Manage user tags' }).click();
    const its = ad.getByRole('dialog', { name: 'Manage user tags' });
    await its.getByRole('group', { name: 'Admin tags' }).getByLabel('E2E team').check();
    await its.getByRole('button', { name: 'Save', exact: true }).click();
    await create.getByRole('button', { name: 'Confirm' }).click();
    // The toast says a mail with a link went out, and to which address.
    await toast(
      ad,
      'The new user has been created successfully. A mail with a link to set a password was sent to nora.newcomer@example.test.',
    );

    // The link of the mail refuses weak passwords in the spec's words, then sets a good one.
    const mail = await smtp.waitFor('nora.newcomer@example.test');
    const link = passwordLinkIn(mail);
    expect(link.origin).toBe(server.baseUrl);
    expect(link.searchParams.get('un')).toBe('nora.newcomer');
    const nora = await open();
    await nora.goto(`${link.pathname}${link.search}`);
    const setPassword = async (password: string, confirm = password) => {
      await nora.getByLabel('Password', { exact: true }).fill(password);
      await nora.getByLabel('Confirm password').fill(confirm);
      await nora.getByRole('button', { name: 'Validate' }).click();
    };
    // The page has a title; each failure is named once, in one alert: the field and what is wrong.
    expect(await nora.getByRole('heading', { level: 1 }).textContent()).toContain('Create password');
    const failed = nora.getByRole('alert');
    await setPassword('weakpass');
    await failed
      .getByText('Password: The password must contain at least one lowercase, one uppercase, one digit and a special character')
      .waitFor();
    await failed.getByText('Something went wrong. Please check the password you typed.').waitFor();
    await expect(nora.getByText('Something went wrong. Please check the password you typed.').count()).resolves.toBe(1);
    await setPassword('Nora#2026x');
    await failed.getByText('Password: The password should not contain a part of the username').waitFor();
    await setPassword('Sunny#Lake42', 'Sunny#Lake43');
    await failed.getByText("Confirm password: The passwords don't match !").waitFor();
    await expect(nora.getByText("The passwords don't match !", { exact: false }).count()).resolves.toBe(1);
    await setPassword('Sunny#Lake42');
    await toast(nora, 'The password has been successfully set.');
    await waitForPage(nora, '/login');

    // First sign-in: two-factor setup with the shown secret, then the recovery codes once.
    const codes = await signInWithSetup(nora, 'nora.newcomer', 'Sunny#Lake42');
    expect(codes).toHaveLength(10);
    await waitForPage(nora, '/import/upload');
    await signOut(nora, 'Nora Newcomer (user)');

    // A recovery code signs in once, without the setup.
    const code = codes[0] ?? '';
    await typeCredentials(nora, 'nora.newcomer', 'Sunny#Lake42');
    await tfaDialog(nora).waitFor();
    expect(await tfaDialog(nora).getByRole('img', { name: 'QR code of the two-factor secret' }).count()).toBe(0);
    await tfaDialog(nora).getByPlaceholder('6-digit code').fill(code);
    await tfaDialog(nora).getByRole('button', { name: 'Validate' }).click();
    await waitForPage(nora, '/import/upload');
    await signOut(nora, 'Nora Newcomer (user)');

    await typeCredentials(nora, 'nora.newcomer', 'Sunny#Lake42');
    await tfaDialog(nora).getByPlaceholder('6-digit code').fill(code);
    await tfaDialog(nora).getByPlaceholder('6-digit code').press('Enter');
    await toast(nora, 'Invalid two-factor code.');
    expect(new URL(nora.url()).pathname).toBe('/login');
    expect(await nora.evaluate(() => localStorage.getItem('gdb-token'))).toBeNull();
    // Every page, the Users screen's tables included, ran under the strict CSP without a violation
    // and without an uncaught error.
    for (const t of [admin, ...pages]) {
      expect(t.problems.csp).toEqual([]);
      expect(t.problems.errors).toEqual([]);
    }
  }, 240_000);

  it('a super-admin de-activates two users at once, and both are refused at sign-in', async () => {
    const sa = admin.page;
    await sa.goto('/manage/users');
    await waitForPage(sa, '/manage/users');
    for (const name of [USERS.user.userName, USERS.manager.userName]) {
      await sa
        .getByRole('row', { name: new RegExp(name.replace('.', '\\.')) })
        .getByRole('checkbox')
        .check();
    }
    await sa.getByRole('button', { name: 'De-Active', exact: true }).click();
    const confirm = sa.getByRole('dialog', { name: 'Confirmation' });
    await confirm.getByText('Do you want to de-activate all the users?').waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await toast(sa, 'De-activation for the selected users has been successfully turned off.');
    // The list reloads after the toast.
    for (const name of [USERS.user.userName, USERS.manager.userName]) {
      await expect.poll(() => sa.getByRole('switch', { name: `Active: ${name}` }).getAttribute('aria-checked')).toBe('false');
    }

    const page = await open();
    for (const name of [USERS.user.userName, USERS.manager.userName]) {
      await typeCredentials(page, name, E2E_PASSWORD);
      await toast(page, 'Your account is disabled.');
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await tfaDialog(page).count()).toBe(0);
    }
  }, 120_000);
});
