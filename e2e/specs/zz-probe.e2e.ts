import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { launchBrowser, newPage, signIn, waitForPage } from '../support/browser.ts';
import { USERS } from '../support/users.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

it('probe', async () => {
  const t = await newPage(browser);
  const { page } = t;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/forgotten');
  await page.getByPlaceholder('Email').fill('a@b.example');
  await page.getByRole('button', { name: 'Validate' }).click();
  await page.locator('.ant-alert-success').waitFor();
  console.log('forgotten alert', await page.locator('.ant-alert-success').evaluate((e) => { const s = getComputedStyle(e); const i = e.querySelector('.ant-alert-icon'); return [s.backgroundColor, s.borderColor, i ? getComputedStyle(i).color : null]; }));
  await signIn(page, USERS.manager);
  await page.goto('/import/jobs');
  await waitForPage(page, '/import/jobs');
  await page.locator('.ant-table').first().waitFor();
  await page.waitForTimeout(1000);
  console.log('jobs', await page.locator('.ant-table-content, .ant-table-body').evaluateAll((els) => els.map((e) => [e.className, e.scrollWidth, e.clientWidth])));
  await page.goto('/manage/schemas');
  await waitForPage(page, '/manage/schemas');
  await page.getByRole('button', { name: 'New schema' }).click();
  const dialog = page.getByRole('dialog', { name: 'New schema' });
  await dialog.waitFor();
  await page.waitForTimeout(500);
  console.log('new schema focus', await page.evaluate(() => [document.activeElement?.tagName, document.activeElement?.getAttribute('aria-label'), document.activeElement?.className]));
  await dialog.getByLabel('Name').fill('Wide');
  await dialog.getByLabel('Name').press('Enter');
  await page.locator('.gdb-schema-tree .gdb-schema-node-name').getByText('Wide', { exact: true }).click();
  await page.waitForTimeout(500);
  const tree = await page.locator('.gdb-schema-tree').boundingBox();
  const node = await page.getByRole('region', { name: 'Node' }).boundingBox();
  console.log('tree', tree, 'node', node);
  const side = await page.getByRole('complementary', { name: 'Sidebar' }).boundingBox();
  console.log('sidebar', side, await page.evaluate(() => [document.documentElement.scrollHeight, window.innerHeight]));
  await page.goto('/testing/index');
  await waitForPage(page, '/testing/index');
  await page.getByRole('button', { name: 'Create Folder' }).click();
  await page.getByRole('dialog', { name: 'Create Folder' }).waitFor();
  await page.waitForTimeout(500);
  console.log('create folder focus', await page.evaluate(() => [document.activeElement?.tagName, document.activeElement?.getAttribute('aria-label'), document.activeElement?.id]));
  await page.keyboard.type('Probe folder');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(800);
  console.log('after enter dialogs', await page.getByRole('dialog').count(), await page.evaluate(() => document.activeElement?.textContent));
  await page.screenshot({ path: '/tmp/i40-probe.png' });
  await t.context.close();
}, 120_000);
