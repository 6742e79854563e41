// The screens on a 1,440 px wide screen, as a newcomer first sees them: the data model editor's
// form beside its tree, the side menu down the whole page, the jobs table without a sideways
// scroll bar, long file names cut with the whole name on hover, and the Testing View's file
// zones drawn like the wizard's.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn, specBrowser, type TestPage, waitForPage } from '../support/browser.ts';
import { COUNTRY_PIPELINE } from '../support/pipelines.ts';
import { USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

async function wide(user: (typeof USERS)[keyof typeof USERS], path: string): Promise<Page> {
  t = await spec.open();
  await t.page.setViewportSize({ width: 1440, height: 900 });
  await signIn(t.page, user);
  await t.page.goto(path);
  await waitForPage(t.page, path);
  return t.page;
}

const box = async (page: Page, selector: Parameters<Page['locator']>[0]) => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not shown`);
  return found;
};

describe('a 1,440 px screen', () => {
  it("puts the data model editor's property form beside the tree, not below it", async () => {
    const page = await wide(USERS.manager, '/manage/schemas');
    await page.getByRole('button', { name: 'New schema' }).click();
    const dialog = page.getByRole('dialog', { name: 'New schema' });
    await dialog.getByLabel('Name').fill(`Wide ${Date.now().toString(36)}`);
    await dialog.getByLabel('Name').press('Enter');
    await page.locator('.gdb-schema-tree .gdb-schema-node-name').getByText('properties', { exact: true }).click();
    const tree = await box(page, '.gdb-schema-tree');
    const form = (await page.getByRole('region', { name: 'Node' }).boundingBox()) ?? tree;
    // Side by side: the form starts right of the tree, in a column beside it (its top above the
    // tree's bottom), not in a row under it.
    expect(form.x).toBeGreaterThanOrEqual(tree.x + tree.width - 1);
    expect(form.y).toBeLessThan(tree.y + tree.height);
  });

  it('runs the side menu down the whole page, scrolled or not, and shows the jobs table without a sideways scroll bar', async () => {
    const page = await wide(USERS.manager, '/import/jobs');
    await page.locator('.gdb-jobs .ant-table').waitFor();
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    for (const at of ['top', 'bottom']) {
      await page.evaluate((end) => window.scrollTo(0, end === 'top' ? 0 : document.documentElement.scrollHeight), at);
      const side = await sidebar.boundingBox();
      expect(side?.y, at).toBeLessThanOrEqual(0);
      expect((side?.y ?? 0) + (side?.height ?? 0), at).toBeGreaterThanOrEqual(900);
    }
    const overflow = await page
      .locator('.gdb-jobs .ant-table-content, .gdb-jobs .ant-table-body')
      .evaluateAll((els) => els.map((e) => e.scrollWidth - e.clientWidth));
    expect(overflow.length).toBeGreaterThan(0);
    for (const extra of overflow) expect(extra).toBeLessThanOrEqual(0);
  });

  it("cuts a long file name with the whole name on hover, in the Testing View's drop zone like the wizard's", async () => {
    const page = await wide(USERS.user, '/testing/index');
    await page.getByRole('tree', { name: 'Pipeline folders' }).getByText(COUNTRY_PIPELINE, { exact: true }).click();
    const zone = page.getByRole('button', { name: 'Drop a dealers file here or click to choose one' });
    await zone.waitFor();
    expect(await zone.evaluate((el) => el.closest('.ant-upload-wrapper') !== null)).toBe(true);
    expect(await page.locator('input[type=file]:visible').count()).toBe(0);
    const long = `dealers-of-the-whole-country-exported-on-the-first-of-december-for-the-yearly-review-${'x'.repeat(80)}.csv`;
    await page
      .locator('input[type=file]')
      .first()
      .setInputFiles({ name: long, mimeType: 'text/csv', buffer: Buffer.from('a\n1\n') });
    const shown = page.locator('.gdb-testing-chosen .gdb-file-name');
    await shown.waitFor();
    const cut = await shown.evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
      right: el.getBoundingClientRect().right,
    }));
    expect(cut.right).toBeLessThanOrEqual(1440);
    expect(cut.scroll).toBeGreaterThan(cut.client);
    await shown.hover();
    await page.getByRole('tooltip').getByText(long, { exact: true }).waitFor();
  });
});
