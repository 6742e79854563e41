// Files that almost fit, as an uploader meets them: a CSV from a dealer's own system, its columns
// named otherwise, is matched to the data model in step 2 (proposed, confirmed), checked by the
// server with that mapping; the next file with the same header goes through without asking.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, closePage, launchBrowser, newPage, signIn, type TestPage, waitForPage } from '../support/browser.ts';
import { COUNTRY_PIPELINE } from '../support/pipelines.ts';
import { USERS } from '../support/users.ts';

const API = '/gdb-importer/v1';
const HEADER = 'Dealer Code;Name;City;E-Mail;Notes';
const FIRST = [
  HEADER,
  'FR101;Garage des Alpes;Grenoble;contact@alpes.example;call before noon',
  'FR102;Auto Loire;Nantes;;',
  'FR103;Garage du Port;Brest;port@garage.example;',
].join('\n');
const SECOND = [HEADER, 'FR104;Atelier Est;Metz;est@atelier.example;new'].join('\n');

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
const sourceCard = (page: Page, step: number) => wizardStep(page, step).locator('.ant-card').filter({ hasText: 'dealers' });

interface PipelineProps {
  name: string;
  brand: { name: string };
  locale: { language: string; country: string };
  productLine: { name: string };
  datakind: { name: string };
}

/** Opens the wizard and chooses the pipeline through brand, locale, product line and datakind. */
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

async function chooseFile(page: Page, name: string, content: string): Promise<void> {
  await sourceCard(page, 1)
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
}

/** Step 2 → 3: the chosen file is sent and its check ends valid. */
async function sendAndCheck(page: Page, name: string): Promise<string[]> {
  await sourceCard(page, 1).getByText(name, { exact: true }).waitFor();
  await nextStep(page).click();
  await sourceCard(page, 2).getByRole('img', { name: 'valid' }).waitFor({ timeout: 30_000 });
  await expect.poll(async () => (await logLines(sourceCard(page, 2)).allTextContents()).join('\n')).toMatch(/Columns mapped/);
  return logLines(sourceCard(page, 2)).allTextContents();
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

describe('columns matched to the data model', () => {
  it('proposes a mapping for a header named otherwise, checks the file with it, and asks no more for the same header', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    await choosePipeline(page, COUNTRY_PIPELINE);
    await chooseFile(page, 'dealer-system.csv', FIRST);

    // The mapping, proposed: each column with its first values and the field it goes to.
    const dialog = page.getByRole('dialog').filter({ hasText: 'Match the columns of the file to dealers' });
    await dialog.waitFor();
    const fieldOf = (column: string) => dialog.locator('tr').filter({ hasText: column }).locator('.ant-select-content');
    await expect.poll(() => fieldOf('Dealer Code').textContent()).toBe('dealerCode *');
    await expect.poll(() => fieldOf('E-Mail').textContent()).toBe('email');
    await expect.poll(() => fieldOf('Notes').textContent()).toBe('Ignore');
    await dialog.locator('tr').filter({ hasText: 'Dealer Code' }).getByText('FR101, FR102, FR103').waitFor();
    // Each select is named by its column, for a screen reader.
    await dialog.getByRole('combobox', { name: 'Field for column City' }).waitFor();

    // Ignoring a required field names it and blocks Confirm; choosing it again frees it.
    await dialog.getByRole('combobox', { name: 'Field for column City' }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="Ignore"]').click();
    await dialog.getByText('Required fields not mapped: city.').waitFor();
    await expect(dialog.getByRole('button', { name: 'Confirm' }).isDisabled()).resolves.toBe(true);
    await dialog.getByRole('combobox', { name: 'Field for column City' }).click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="city *"]').click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The server checks the file with the mapping, and its log says which.
    const lines = await sendAndCheck(page, 'dealer-system.csv');
    expect(lines).toContain('Columns mapped: Dealer Code → dealerCode, Name → name, City → city, E-Mail → email; ignored: Notes');
    expect(lines.at(-1)).toBe('3 rows read, all valid.');

    // The next file with the same header goes through without the mapping step.
    await choosePipeline(page, COUNTRY_PIPELINE);
    await chooseFile(page, 'dealer-system-2.csv', SECOND);
    await sourceCard(page, 1).getByText('dealer-system-2.csv', { exact: true }).waitFor();
    await expect(page.getByRole('dialog').filter({ hasText: 'Match the columns' }).count()).resolves.toBe(0);
    const again = await sendAndCheck(page, 'dealer-system-2.csv');
    expect(again.at(-1)).toBe('1 row read, all valid.');
  });
});
