// Every main page state checked with axe-core as a keyboard and screen-reader user needs it: no
// critical or serious violation (names, contrast, landmarks, hidden focusable content), one
// level-one heading per page, and the keyboard paths that used to be missing.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { levelOneHeadings, seriousViolations } from '../support/axe.ts';
import { signIn, specBrowser, type TestPage, waitForPage } from '../support/browser.ts';
import { COUNTRY_PIPELINE } from '../support/pipelines.ts';
import { type E2eUser, USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

async function open(): Promise<Page> {
  t = await spec.open();
  return t.page;
}

/** No critical or serious violation, and one level-one heading. */
async function expectAccessible(page: Page, state: string): Promise<void> {
  expect(await seriousViolations(page), state).toEqual([]);
  expect(await levelOneHeadings(page), `${state}: level-one headings`).toBe(1);
}

/** Signs in and visits each page, checking each once it has rendered and its data has come. */
async function visit(user: E2eUser, paths: readonly { path: string; ready: (page: Page) => Promise<unknown> }[]) {
  const page = await open();
  await signIn(page, user);
  for (const { path, ready } of paths) {
    await page.goto(path);
    await waitForPage(page, path);
    await ready(page);
    await expectAccessible(page, path);
  }
  return page;
}

describe('pages before sign-in', () => {
  it('the sign-in page, before and after a refused password; the forgotten-password page', async () => {
    const page = await open();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await expectAccessible(page, '/login');
    await page.getByPlaceholder('firstname.lastname').fill(USERS.user.userName);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    // The refusal is said in a live region, not only in a toast.
    await expect.poll(() => page.getByRole('alert').filter({ hasText: /\S/ }).count()).toBeGreaterThan(0);
    await expectAccessible(page, '/login refused');
    await page.goto('/forgotten');
    await page.getByRole('button', { name: 'Validate' }).waitFor();
    await expectAccessible(page, '/forgotten');
  });
});

describe('signed-in pages', () => {
  it("a user's pages: the wizard's first two steps, export, testing, and a page they may not open", async () => {
    const page = await visit(USERS.user, [
      { path: '/import/upload', ready: (p) => p.getByLabel('Pipelines').getByText(COUNTRY_PIPELINE).waitFor() },
      { path: '/export/index', ready: (p) => p.getByText(COUNTRY_PIPELINE).first().waitFor() },
      { path: '/testing/index', ready: (p) => p.getByText(COUNTRY_PIPELINE).first().waitFor() },
    ]);
    await page.goto('/import/upload');
    await waitForPage(page, '/import/upload');
    await page.getByLabel('Pipelines').getByText(COUNTRY_PIPELINE, { exact: true }).click();
    await page.getByRole('button', { name: 'Next step' }).click();
    // The new step's heading has the focus, and the drop zone is reached by the keyboard.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Step 2 of 5: Choose your file');
    await page.getByText('Last uploaded list').first().waitFor();
    await expectAccessible(page, '/import/upload step 2');
    await page.goto('/manage/users');
    await waitForPage(page, '/unauthorized/index');
    // Its page comes on demand: checked once it shows, not while its part of the app loads.
    await page.getByRole('heading', { name: 'Unauthorized' }).waitFor();
    await expectAccessible(page, '/unauthorized');
  });

  it("a manager's pages: the logbook, the consult page and the jobs", async () => {
    await visit(USERS.manager, [
      { path: '/consult/import', ready: (p) => p.locator('.ant-table').first().waitFor() },
      { path: '/consult/upload', ready: (p) => p.getByText(COUNTRY_PIPELINE).first().waitFor() },
      { path: '/import/jobs', ready: (p) => p.getByText('Jobs', { exact: true }).waitFor() },
    ]);
  });

  it("a super-admin's users page and a user's dialog with the pipeline transfer, opened and closed by the keyboard", async () => {
    const page = await visit(USERS.superAdmin, [
      { path: '/manage/users', ready: (p) => p.getByRole('button', { name: `Open user ${USERS.user.userName}` }).waitFor() },
    ]);
    // A skip link comes first and takes the keyboard to the page.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    const opener = page.getByRole('button', { name: `Open user ${USERS.user.userName}` });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Update user').waitFor();
    await dialog.locator('.gdb-pipeline-transfer input[type=checkbox]').first().waitFor();
    await expectAccessible(page, 'user dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => opener.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
