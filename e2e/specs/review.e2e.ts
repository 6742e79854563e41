// An uploader fixes a file in the review grid: a CSV with three bad rows into the demo's French
// pipeline, the three rows fixed in place, the corrected file submitted and imported; the
// administrator then finds the corrections on the Activity page.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, closePage, launchBrowser, newPage, signIn, type TestPage, waitForPage } from '../support/browser.ts';
import { COUNTRY_PIPELINE } from '../support/pipelines.ts';
import { USERS } from '../support/users.ts';

const API = '/gdb-importer/v1';
/** Three bad rows: a code of the wrong form, a name missing, vehicles not a whole number. */
const BAD_CSV = [
  'dealerCode,name,city,postalCode,email,vehicles',
  'fr-401,Garage de la Gare,Lyon,69003,gare@example.test,4',
  'FR402,,Paris,75002,paris@example.test,9',
  'FR403,Auto Ouest,Nantes,44000,ouest@example.test,many',
  'FR404,Garage du Port,Brest,29200,port@example.test,3',
].join('\n');

let browser: Browser;
let pages: TestPage[] = [];

async function open(): Promise<Page> {
  const t = await newPage(browser);
  pages.push(t);
  return t.page;
}

async function apiAs<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('gdb-token'));
  const res = await fetch(`${baseUrl()}${API}${path}`, { headers: { 'x-token': token ?? '' } });
  return ((await res.json()) as { data: T }).data;
}

async function pickOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

const nextStep = (page: Page) => page.getByRole('button', { name: 'Next step' });
const wizardStep = (page: Page, step: number) => page.locator(`.gdb-wizard-step[data-step="${step}"]`);
const logLines = (scope: Locator) => scope.locator('.gdb-log-message');

interface PipelineProps {
  name: string;
  brand: { name: string };
  locale: { language: string; country: string };
  productLine: { name: string };
  datakind: { name: string };
}

async function choosePipeline(page: Page, name: string): Promise<void> {
  await page.goto('/import/upload');
  await waitForPage(page, '/import/upload');
  const mine = await apiAs<{ pipelines: PipelineProps[] }>(page, '/users/pipelines');
  const p = mine.pipelines.find((x) => x.name === name);
  if (!p) throw new Error(`${name} is not among the pipelines the user may use`);
  await pickOption(page, 'Brand', p.brand.name);
  await pickOption(page, 'Locale', `${p.locale.language}-${p.locale.country}`);
  await pickOption(page, 'Product line', p.productLine.name);
  await pickOption(page, 'Datakind', p.datakind.name);
  await page.getByLabel('Pipelines').getByText(name, { exact: true }).click();
  await expect.poll(() => nextStep(page).isEnabled()).toBe(true);
  await nextStep(page).click();
}

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async (context) => {
  const failed = context.task.result?.state === 'fail';
  for (const t of pages) await closePage(t, `${context.task.name}-${pages.indexOf(t)}`, failed);
  pages = [];
});

describe('the review of an invalid file', () => {
  it('fixes three rows in the grid, imports the corrected file, and the administrator finds the corrections', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    await choosePipeline(page, COUNTRY_PIPELINE);
    const card = wizardStep(page, 1).locator('.ant-card').filter({ hasText: 'dealers' });
    await card
      .locator('input[type=file]')
      .setInputFiles({ name: 'review.csv', mimeType: 'text/csv', buffer: Buffer.from(BAD_CSV) });
    await card.getByText('review.csv', { exact: true }).waitFor();
    await nextStep(page).click();
    const checked = wizardStep(page, 2).locator('.ant-card').filter({ hasText: 'dealers' });
    await checked.getByRole('img', { name: 'invalid' }).waitFor();

    // Step 2's list offers the review of the invalid upload.
    await page.getByRole('button', { name: 'Prev step' }).click();
    const listed = wizardStep(page, 1).locator('li').filter({ hasText: 'review.csv' }).first();
    await listed.getByRole('img', { name: 'invalid' }).waitFor();
    await listed.getByRole('link', { name: 'Review the rows of review.csv' }).click();
    await page.waitForURL(/\/import\/review\?upload=/);
    await page.getByText('Review of review.csv').waitFor();
    const status = page.getByText(/rows? (has|have) a problem/);
    await expect.poll(() => status.textContent()).toContain('3 rows have a problem, 0 removed, of 4 in the file.');

    // Each bad cell is marked and says why; fixed in place, each row is checked again.
    const code = page.getByLabel('dealerCode, row 2', { exact: true });
    await expect(code.getAttribute('aria-invalid')).resolves.toBe('true');
    await code.fill('FR401');
    await page.getByLabel('name, row 3', { exact: true }).fill('Paris Autos');
    await page.getByLabel('vehicles, row 4', { exact: true }).fill('12');
    await expect
      .poll(() => status.textContent(), { timeout: 20_000 })
      .toContain('0 rows have a problem, 0 removed, of 4 in the file.');
    await expect(code.getAttribute('aria-invalid')).resolves.toBeNull();

    await page.getByRole('button', { name: 'Submit corrected file' }).click();
    await page
      .getByText('The corrected file was submitted as a new upload of the same data source; the original is kept.')
      .waitFor();

    // The corrected upload is checked as any and imported; the original, kept, is switched off.
    await choosePipeline(page, COUNTRY_PIPELINE);
    const corrected = wizardStep(page, 1).locator('li').filter({ hasText: 'review-corrected.csv' }).first();
    await corrected.getByRole('img', { name: 'valid' }).waitFor({ timeout: 30_000 });
    await corrected.getByText('Corrected', { exact: true }).waitFor();
    await expect(
      wizardStep(page, 1).getByRole('switch', { name: 'Take in next run: review.csv' }).first().isChecked(),
    ).resolves.toBe(false);
    await nextStep(page).click();
    await wizardStep(page, 2)
      .locator('.ant-card')
      .filter({ hasText: 'dealers' })
      .getByRole('img', { name: 'valid' })
      .first()
      .waitFor();
    await nextStep(page).click();
    await nextStep(page).click();
    const dialog = page.getByRole('dialog').filter({ hasText: `Do you want to run the pipeline : ${COUNTRY_PIPELINE}` });
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await logLines(wizardStep(page, 4)).getByText('Import done.', { exact: true }).waitFor({ timeout: 30_000 });
    expect((await logLines(wizardStep(page, 4)).allTextContents()).join('\n')).toMatch(/\d+ dealers mapped for Dealers France\./);
    // The import's log says the file was corrected, and where its corrections are.
    expect(await logLines(wizardStep(page, 4)).allTextContents()).toContain(
      'Input dealers: review-corrected.csv was corrected in a review; its corrections are on the Activity page.',
    );

    // The administrator finds the three corrections, from what to what, on the Activity page.
    const admin = await open();
    await signIn(admin, USERS.admin);
    await admin.goto('/activity/index');
    await waitForPage(admin, '/activity/index');
    await admin.getByLabel('Who', { exact: true }).fill(USERS.user.userName);
    await admin.getByLabel('Who', { exact: true }).press('Enter');
    const rows = admin.locator('.ant-table-tbody tr').filter({ hasText: 'Cell corrected' });
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    const texts = (await rows.allTextContents()).join('\n');
    expect(texts).toContain('Row 2, dealerCode: fr-401 → FR401');
    expect(texts).toContain('Row 3, name: (no value) → Paris Autos');
    expect(texts).toContain('Row 4, vehicles: many → 12');
    expect(texts).toContain(COUNTRY_PIPELINE);
  });
});
