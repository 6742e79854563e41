// The sign-in page under the server's strict CSP, and what happens when the server ends a session.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, signIn, specBrowser, type TestPage, waitForPage, where } from '../support/browser.ts';
import { USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

/**
 * Ends the page's session on the server, as signing out from another device would, once the page's
 * own reads have been answered: one answered after it would open the dialog by itself.
 */
async function revokeOnServer(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  const token = await page.evaluate(() => localStorage.getItem('gdb-token'));
  const res = await fetch(`${baseUrl()}/gdb-importer/v1/users/logout`, {
    method: 'POST',
    headers: { 'x-token': token ?? '' },
  });
  expect(res.status).toBe(200);
}

describe('the sign-in page', () => {
  it('loads and works under the strict CSP without a violation or a console error', async () => {
    t = await spec.open();
    const { page, problems } = t;
    const res = await page.goto('/login');
    expect(res?.headers()['content-security-policy']).toMatch(/style-src 'self' 'nonce-[^']+'/);
    await page.getByRole('heading', { name: 'Access GDB Importer' }).waitFor();
    // antd's styles are injected at run time: they apply only when they carry the nonce.
    const button = page.getByRole('button', { name: 'Login', exact: true });
    expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(9, 88, 217)');
    await button.click();
    await page.getByText('The password can not be less than 6 digits').waitFor();
    await page.getByLabel('Password').fill('wrong-password');
    await page.locator('.ant-input-password-icon').click();
    expect(await page.getByLabel('Password').getAttribute('type')).toBe('text');
    await page.getByPlaceholder('firstname.lastname').fill('nobody.here');
    await button.click();
    await page.locator('.ant-message-error').waitFor();
    const shown = (await page.locator('.ant-message-error').textContent()) ?? '';
    expect(shown.trim().length).toBeGreaterThan(0);
    await page.waitForTimeout(300);
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
    // The refused sign-in is a 401 the browser reports as a failed resource; nothing else may fail.
    expect(problems.console.filter((m) => !/status of 401/.test(m))).toEqual([]);
  });

  it('the signed-in shell also runs without a CSP violation or a console error', async () => {
    t = await spec.open();
    const { page, problems } = t;
    await signIn(page, USERS.superAdmin);
    await page.getByText('Sam Superadmin (super-admin)').click();
    await page.getByText('Log Out').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Close the sidebar' }).click();
    await page.getByRole('button', { name: 'Open the sidebar' }).click();
    await page.waitForTimeout(300);
    expect({ console: problems.console, errors: problems.errors, csp: problems.csp }).toEqual({
      console: [],
      errors: [],
      csp: [],
    });
  });
});

describe('a session revoked on the server', () => {
  it("shows the 'Confirm logout' dialog; Cancel stays on the page", async () => {
    t = await spec.open();
    const { page } = t;
    await signIn(page, USERS.user);
    await page.goto('/testing/index');
    await waitForPage(page, '/testing/index');
    await revokeOnServer(page);

    await page.getByText('Uma User (user)').click();
    await page.getByText('Log Out').click();
    const dialog = page.getByRole('dialog', { name: 'Confirm logout' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      'You have been logged out, you can cancel to stay on this page, or log in again',
    );
    // The dialog opens under the strict CSP without a refused style.
    expect(t.problems.csp).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(where(page)).toBe('/testing/index');
  });

  it('Re-Login resets the tokens and reloads into the sign-in page with a redirect back', async () => {
    t = await spec.open();
    const { page } = t;
    await signIn(page, USERS.user);
    await page.goto('/export/index');
    await waitForPage(page, '/export/index');
    await revokeOnServer(page);

    await page.getByText('Uma User (user)').click();
    await page.getByText('Log Out').click();
    const dialog = page.getByRole('dialog', { name: 'Confirm logout' });
    await dialog.getByRole('button', { name: 'Re-Login' }).click();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(where(page)).toBe('/login?redirect=/export/index');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('gdb-')))).toEqual([]);
  });

  it('a page opened after the revocation shows the dialog too', async () => {
    t = await spec.open();
    const { page } = t;
    await signIn(page, USERS.manager);
    await revokeOnServer(page);
    await page.goto('/consult/import');
    await page.getByRole('dialog', { name: 'Confirm logout' }).waitFor();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(where(page)).toBe('/login?redirect=/consult/import');
  });
});
