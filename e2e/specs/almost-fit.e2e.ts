// Files that almost fit, as an uploader meets them: a CSV from a dealer's own system, its columns
// named otherwise and three of its rows wrong, into the demo's French pipeline. The mapping is
// proposed and confirmed in step 2, the three rows are fixed in the review grid, the corrected file
// is submitted and imported; the next file with the same header goes through without the mapping
// step; the administrator finds the corrections on the Activity page. A workbook that almost fits,
// into the demo's Spanish pipeline (the demo's one whose source takes workbooks), is mapped the same
// way, its header and first values read by the server.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { excelJsWorkbook } from '../../packages/server/test/dealer-workbooks.ts';
import { closePage, launchBrowser, newPage, signIn, type TestPage, waitForPage } from '../support/browser.ts';
import { COUNTRY_PIPELINE } from '../support/pipelines.ts';
import { USERS } from '../support/users.ts';
import { choosePipeline, logLines, nextStep, sourceCard, wizardStep } from '../support/wizard.ts';

const HEADER = 'Dealer Code;Name;City;E-Mail;Notes';
/** Three bad rows: a code of the wrong form, a name missing, an e-mail that is none. */
const FIRST = [
  HEADER,
  'fr-401;Garage des Alpes;Grenoble;contact@alpes.example;call before noon',
  'FR402;;Nantes;;',
  'FR403;Garage du Port;Brest;port at garage;',
  'FR404;Auto Est;Metz;est@auto.example;',
].join('\n');
const SECOND = [HEADER, 'FR405;Atelier Est;Nancy;est@atelier.example;new'].join('\n');
/** The demo's country pipeline whose data source takes workbooks. */
const WORKBOOK_PIPELINE = 'Dealers Spain';

let browser: Browser;
let pages: TestPage[] = [];

async function open(): Promise<Page> {
  const t = await newPage(browser);
  pages.push(t);
  return t.page;
}

const card = (page: Page, step: number) => sourceCard(page, step, 'dealers');

async function chooseFile(page: Page, name: string, content: string): Promise<void> {
  await card(page, 1)
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
}

/** Step 2 → 3: the chosen file is sent and checked; answers its log lines once its state shows. */
async function sendAndCheck(page: Page, name: string, state: 'valid' | 'invalid'): Promise<string[]> {
  await card(page, 1).getByText(name, { exact: true }).waitFor();
  await nextStep(page).click();
  await card(page, 2).getByRole('img', { name: state }).first().waitFor({ timeout: 30_000 });
  await expect.poll(async () => (await logLines(card(page, 2)).allTextContents()).join('\n')).toMatch(/Columns mapped/);
  return logLines(card(page, 2)).allTextContents();
}

/** The mapping dialog: proposed by name, a required field ignored blocks Confirm, then confirmed. */
async function confirmMapping(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: 'Match the columns of the file to dealers' });
  await dialog.waitFor();
  const fieldOf = (column: string) => dialog.locator('tr').filter({ hasText: column }).locator('.ant-select-content');
  await expect.poll(() => fieldOf('Dealer Code').textContent()).toBe('dealerCode *');
  await expect.poll(() => fieldOf('E-Mail').textContent()).toBe('email');
  await expect.poll(() => fieldOf('Notes').textContent()).toBe('Ignore');
  await dialog.locator('tr').filter({ hasText: 'Dealer Code' }).getByText('fr-401, FR402, FR403').waitFor();
  const city = dialog.getByRole('combobox', { name: 'Field for column City' });
  await city.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="Ignore"]').click();
  await dialog.getByText('Required fields not mapped: city.').waitFor();
  await expect(dialog.getByRole('button', { name: 'Confirm' }).isDisabled()).resolves.toBe(true);
  await city.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="city *"]').click();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The review grid: each bad cell marked and fixed in place, checked again; then submitted. */
async function fixInReview(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Prev step' }).click();
  const listed = wizardStep(page, 1).locator('li').filter({ hasText: 'dealer-system.csv' }).first();
  await listed.getByRole('link', { name: 'Review rows of dealer-system.csv' }).click();
  await page.waitForURL(/\/import\/review\?upload=/);
  const status = page.getByText(/rows? (has|have) a problem/);
  await expect.poll(() => status.textContent()).toContain('3 rows have a problem, 0 removed, of 4 in the file.');
  const code = page.getByLabel('dealerCode, row 2', { exact: true });
  await expect(code.getAttribute('aria-invalid')).resolves.toBe('true');
  await code.fill('FR401');
  await page.getByLabel('name, row 3', { exact: true }).fill('Loire Autos');
  await page.getByLabel('email, row 4', { exact: true }).fill('port@garage.example');
  await expect
    .poll(() => status.textContent(), { timeout: 20_000 })
    .toContain('0 rows have a problem, 0 removed, of 4 in the file.');
  await expect(code.getAttribute('aria-invalid')).resolves.toBeNull();
  await page.getByRole('button', { name: 'Submit corrected file' }).click();
  await page
    .getByText('The corrected file was submitted as a new upload of the same data source; the original is kept.')
    .waitFor();
}

/** Step 2 → 5: the corrected upload, valid and marked, is imported now; answers the run's log lines. */
async function importCorrected(page: Page): Promise<string[]> {
  await choosePipeline(page, COUNTRY_PIPELINE);
  const corrected = wizardStep(page, 1).locator('li').filter({ hasText: 'dealer-system-corrected.csv' }).first();
  await corrected.getByRole('img', { name: 'valid' }).waitFor({ timeout: 30_000 });
  await corrected.getByText('Corrected', { exact: true }).waitFor();
  const original = wizardStep(page, 1).getByRole('switch', { name: 'Take in next run: dealer-system.csv' }).first();
  await expect(original.isChecked()).resolves.toBe(false);
  await nextStep(page).click();
  await card(page, 2).getByRole('img', { name: 'valid' }).first().waitFor();
  await nextStep(page).click();
  await nextStep(page).click();
  const dialog = page.getByRole('dialog').filter({ hasText: `Do you want to run the pipeline : ${COUNTRY_PIPELINE}` });
  await dialog.getByRole('button', { name: 'Yes' }).click();
  const step5: Locator = wizardStep(page, 4);
  await logLines(step5).getByText('Import done.', { exact: true }).waitFor({ timeout: 30_000 });
  return logLines(step5).allTextContents();
}

/** The administrator's Activity page, filtered by the uploader: the corrections' texts. */
async function correctionsSeenByAdmin(userName: string): Promise<string> {
  const admin = await open();
  await signIn(admin, USERS.admin);
  await admin.goto('/activity/index');
  await waitForPage(admin, '/activity/index');
  await admin.getByLabel('Who', { exact: true }).fill(userName);
  await admin.getByLabel('Who', { exact: true }).press('Enter');
  const rows = admin.locator('.ant-table-tbody tr').filter({ hasText: 'Cell corrected' });
  await expect.poll(() => rows.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  return (await rows.allTextContents()).join('\n');
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

describe('a file that almost fits', () => {
  it('is mapped, its three bad rows fixed in the grid and imported; the same header asks no more; the corrections are on record', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    await choosePipeline(page, COUNTRY_PIPELINE);
    await chooseFile(page, 'dealer-system.csv', FIRST);
    await confirmMapping(page);
    const lines = await sendAndCheck(page, 'dealer-system.csv', 'invalid');
    expect(lines).toContain('Columns mapped: Dealer Code → dealerCode, Name → name, City → city, E-Mail → email; ignored: Notes');

    await fixInReview(page);
    const run = await importCorrected(page);
    expect(run.join('\n')).toMatch(/\d+ dealers mapped for Dealers France\./);
    expect(run).toContain(
      'Input dealers: dealer-system-corrected.csv was corrected in a review; its corrections are on the Activity page.',
    );

    // The next file with the same header goes through without the mapping step.
    await choosePipeline(page, COUNTRY_PIPELINE);
    await chooseFile(page, 'dealer-system-2.csv', SECOND);
    await card(page, 1).getByText('dealer-system-2.csv', { exact: true }).waitFor();
    await expect(page.getByRole('dialog').filter({ hasText: 'Match the columns' }).count()).resolves.toBe(0);
    const again = await sendAndCheck(page, 'dealer-system-2.csv', 'valid');
    expect(again.at(-1)).toBe('1 row read, all valid.');

    const texts = await correctionsSeenByAdmin(USERS.user.userName);
    expect(texts).toContain('Row 2, dealerCode: fr-401 → FR401');
    expect(texts).toContain('Row 3, name: (no value) → Loire Autos');
    expect(texts).toContain('Row 4, email: port at garage → port@garage.example');
    expect(texts).toContain(COUNTRY_PIPELINE);
  });

  it('as a workbook, is mapped with its header and first values read by the server, dates as the check sees them', async () => {
    const page = await open();
    await signIn(page, USERS.manager);
    await choosePipeline(page, WORKBOOK_PIPELINE);
    const workbook = await excelJsWorkbook(
      [
        ['Concesionarios, diciembre 2026'],
        ['Dealer Code', 'Name', 'City', 'E-Mail', 'Opened On', 'Notes'],
        ['ES001', 'Taller Centro', 'Madrid', 'centro@taller.example', new Date(Date.UTC(2019, 3, 1)), 'first'],
        ['ES002', 'Auto Sur', 'Sevilla', 'sur@auto.example', new Date(Date.UTC(2021, 8, 15)), ''],
      ],
      { 5: 'dd/mm/yyyy' },
    );
    await card(page, 1)
      .locator('input[type=file]')
      .setInputFiles({
        name: 'concesionarios.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(workbook),
      });
    const dialog = page.getByRole('dialog').filter({ hasText: 'Match the columns of the file to dealers' });
    await dialog.waitFor();
    const row = (column: string) => dialog.locator('tr').filter({ hasText: column });
    await row('Dealer Code').getByText('ES001, ES002').waitFor();
    await row('Opened On').getByText('2019-04-01, 2021-09-15').waitFor();
    await expect.poll(() => row('Opened On').locator('.ant-select-content').textContent()).toBe('openedOn');
    await expect.poll(() => row('Notes').locator('.ant-select-content').textContent()).toBe('Ignore');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const lines = await sendAndCheck(page, 'concesionarios.xlsx', 'valid');
    expect(lines).toContain(
      'Columns mapped: Dealer Code → dealerCode, Name → name, City → city, E-Mail → email, Opened On → openedOn; ignored: Notes',
    );
    expect(lines.at(-1)).toBe('2 rows read, all valid.');
  });
});
