// Imports as people make them: a user picks a country pipeline through the four filters, drops a
// CSV, sees it checked, runs it now, watches its logs and exports the output; a manager follows it
// in the logbook and schedules a weekly repeat job; a slow run's log lines arrive live in the
// wizard and in the logbook, and reach no one without rights on the pipeline.
import { formatRepeatPattern } from '@gdb/shared/imports/repeat-pattern';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectLive } from '../../packages/server/test/live-kit.ts';
import { baseUrl, closePage, launchBrowser, newPage, signIn, type TestPage, waitForPage } from '../support/browser.ts';
import { COUNTRY_PIPELINE, SLOW_PIPELINE } from '../support/pipelines.ts';
import { USERS } from '../support/users.ts';

const API = '/gdb-importer/v1';
const GOOD_CSV = [
  'dealerCode,name,city,postalCode,email,vehicles',
  'FR001,Garage du Centre,Lyon,69002,contact@garage-centre.example,42',
  'FR002,Auto Sud,Marseille,13001,info@autosud.example,17',
  'FR003,Nord Motors,Lille,59000,hello@nordmotors.example,8',
].join('\n');

let browser: Browser;
let pages: TestPage[] = [];

async function open(): Promise<Page> {
  const t = await newPage(browser);
  pages.push(t);
  return t.page;
}

/** A read of the API with the session the page holds. */
async function apiAs<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('gdb-token'));
  const res = await fetch(`${baseUrl()}${API}${path}`, { headers: { 'x-token': token ?? '' } });
  const body = (await res.json()) as { data: T };
  return body.data;
}

async function pickOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

/** The scheduler's time: 288 steps in a virtual list, typed, as a person would, to narrow them. */
async function pickTime(page: Page, time: string): Promise<void> {
  await page.getByLabel('Time', { exact: true }).fill(time);
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${time}"]`).click();
}

const nextStep = (page: Page) => page.getByRole('button', { name: 'Next step' });
const wizardStep = (page: Page, step: number) => page.locator(`.gdb-wizard-step[data-step="${step}"]`);
const logLines = (scope: Locator) => scope.locator('.gdb-log-message');

interface PipelineProps {
  _id: string;
  name: string;
  brand: { name: string };
  locale: { language: string; country: string };
  productLine: { name: string };
  datakind: { name: string };
}

/** Opens the wizard and chooses the pipeline through brand, locale, product line and datakind. */
async function choosePipeline(page: Page, name: string): Promise<PipelineProps> {
  await page.goto('/import/upload');
  await waitForPage(page, '/import/upload');
  const mine = await apiAs<{ pipelines: PipelineProps[] }>(page, '/users/pipelines');
  const p = mine.pipelines.find((x) => x.name === name);
  if (!p) throw new Error(`${name} is not among the pipelines the user may use`);
  await pickOption(page, 'Brand', p.brand.name);
  await pickOption(page, 'Locale', `${p.locale.language}-${p.locale.country}`);
  await pickOption(page, 'Product line', p.productLine.name);
  await pickOption(page, 'Datakind', p.datakind.name);
  const list = page.getByLabel('Pipelines');
  await list.getByText(name, { exact: true }).click();
  await expect.poll(() => nextStep(page).isEnabled()).toBe(true);
  await nextStep(page).click();
  return p;
}

/** Step 2: drops a CSV on the data source's zone and sends it. */
async function dropCsv(page: Page, dataSubKind: string, name: string, content: string): Promise<void> {
  const card = wizardStep(page, 1).locator('.ant-card').filter({ hasText: dataSubKind });
  await card.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
  await card.getByText(name, { exact: true }).waitFor();
  await nextStep(page).click();
  await wizardStep(page, 2).waitFor();
}

const storedToast = (page: Page) => page.locator('.ant-message-notice').getByText('Uploaded successfully!', { exact: true });

/** Step 4 → 5: answers Yes to 'Do you want to run the pipeline : {name}' (once step 4 shows: a click before it would land on step 3's button). */
async function confirmRun(page: Page, name: string): Promise<void> {
  await wizardStep(page, 3).waitFor();
  await nextStep(page).click();
  const dialog = page.getByRole('dialog').filter({ hasText: `Do you want to run the pipeline : ${name}` });
  await dialog.getByRole('button', { name: 'Yes' }).click();
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

describe('an import, as a user makes it', () => {
  it('checks the dropped CSV, runs it now with its logs, shows it in the logbook and exports its rows', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    await choosePipeline(page, COUNTRY_PIPELINE);
    await dropCsv(page, 'dealers', 'dealers.csv', GOOD_CSV);
    await storedToast(page).waitFor();

    // Step 3: the upload turns valid without a reload, its check logged.
    const checked = wizardStep(page, 2).locator('.ant-card').filter({ hasText: 'dealers' });
    await checked.getByRole('img', { name: 'valid' }).waitFor();
    await expect.poll(async () => (await logLines(checked).allTextContents()).length).toBeGreaterThan(0);
    await nextStep(page).click();

    // Step 4: Now is the default; the user is not offered Repeat.
    await expect(page.getByRole('radio', { name: 'Now' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('radio', { name: 'Repeat' }).count()).resolves.toBe(0);
    await confirmRun(page, COUNTRY_PIPELINE);

    // Step 5: the run's logs, newest first, until it is done; the banner follows the import there.
    const step5 = wizardStep(page, 4);
    await logLines(step5).getByText('Import done.', { exact: true }).waitFor({ timeout: 30_000 });
    await step5.getByRole('status').getByText('The import is done.', { exact: true }).waitFor();
    const lines = await logLines(step5).allTextContents();
    expect(lines).toContain('3 dealers mapped for Dealers France.');
    expect(lines.indexOf('Import done.')).toBeLessThan(lines.indexOf('3 dealers mapped for Dealers France.'));

    // The logbook (a manager's page) shows the import done, with its logs in the details.
    const manager = await open();
    await signIn(manager, USERS.manager);
    await manager.goto('/consult/import');
    await waitForPage(manager, '/consult/import');
    const row = manager.locator('.gdb-logbook-row').filter({ hasText: COUNTRY_PIPELINE }).first();
    await row.waitFor();
    await expect(row.locator('td').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['done', 'true (Succeeded)', USERS.user.firstName, 'dealers, store']),
    );
    await row.click();
    const details = manager.locator('.gdb-logbook-details');
    await details.getByText(`Details for pipeline : ${COUNTRY_PIPELINE} started at : `).waitFor();
    await logLines(details).getByText('Import done.', { exact: true }).waitFor();

    // Export: the user downloads the latest output file and reads its rows.
    await page.goto('/export/index');
    await waitForPage(page, '/export/index');
    await page.getByLabel('Pipelines').getByText(COUNTRY_PIPELINE, { exact: true }).click();
    const outputs = page.locator('.gdb-export-files[data-title="Output files"]');
    // The Kind cell names the data sink (the store sink's file name holds 'Dealers' too).
    const outputRow = outputs
      .locator('tbody tr')
      .filter({ has: page.getByRole('cell', { name: 'dealers', exact: true }) })
      .first();
    await outputRow.waitFor();
    await outputRow.getByRole('checkbox').check();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(path, 'utf8');
    const rows = text.trim().split(/\r?\n/);
    expect(rows[0]).toBe('dealerCode,name,city,postalCode,email,vehicles,openedOn,country');
    // The file had no openedOn column: no value, an empty cell.
    expect(rows).toContain('FR001,Garage du Centre,LYON,69002,contact@garage-centre.example,42,,Dealers France');
    expect(rows).toHaveLength(4);
  });

  it('shows the row errors of an invalid file and does not let it go on', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    await choosePipeline(page, COUNTRY_PIPELINE);
    await dropCsv(page, 'dealers', 'broken.csv', 'dealerCode,name,city,vehicles\nfr-1,Garage,Lyon,2\nFR004,,Paris,many\n');
    const checked = wizardStep(page, 2).locator('.ant-card').filter({ hasText: 'dealers' });
    await checked.getByRole('img', { name: 'invalid' }).waitFor();
    await expect
      .poll(async () => (await logLines(checked).allTextContents()).join('\n'))
      .toMatch(/Row 2, dealerCode: "fr-1" does not have the expected form \(pattern /);
    // Oldest first: the file received, then its problems, then the verdict.
    await expect
      .poll(async () => (await logLines(checked).allTextContents()).at(-1))
      .toBe('2 rows read, 2 invalid (3 problems).');
    // Rows as the file numbers its lines; the empty name is no value, and the data model requires one.
    const lines = await logLines(checked).allTextContents();
    expect(lines).toContain('Row 3, name: no value, and one is required');
    expect(lines).toContain('Row 3, vehicles: "many" is not a whole number');
    expect(lines[0]).toMatch(/^File broken\.csv received/);
    // Stored, but not a success: the toast that said so is gone.
    await expect.poll(() => storedToast(page).count()).toBe(0);
    await expect(nextStep(page).isDisabled()).resolves.toBe(true);

    // Switched off, the invalid upload no longer stands in the way of the earlier valid one.
    await page.getByRole('button', { name: 'Prev step' }).click();
    // Step 2 shows it invalid, not still being checked.
    await wizardStep(page, 1)
      .locator('li')
      .filter({ hasText: 'broken.csv' })
      .first()
      .getByRole('img', { name: 'invalid' })
      .waitFor();
    await wizardStep(page, 1).getByRole('switch', { name: 'Take in next run: broken.csv' }).first().click();
    await expect
      .poll(() => wizardStep(page, 1).getByRole('switch', { name: 'Take in next run: broken.csv' }).first().isChecked())
      .toBe(false);
  });

  it('takes only the new upload in the second run: the first one is marked imported and left out', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    const run = async (file: string, rows: string) => {
      await choosePipeline(page, COUNTRY_PIPELINE);
      await dropCsv(page, 'dealers', file, rows);
      await wizardStep(page, 2).locator('.ant-card').filter({ hasText: 'dealers' }).getByRole('img', { name: 'valid' }).waitFor();
      await nextStep(page).click();
      await confirmRun(page, COUNTRY_PIPELINE);
      await logLines(wizardStep(page, 4)).getByText('Import done.', { exact: true }).waitFor({ timeout: 30_000 });
      return logLines(wizardStep(page, 4)).allTextContents();
    };
    await run('first.csv', GOOD_CSV);
    // The banner that says so is drawn in the theme's success colour (app/theme.ts COLORS.success).
    const banner = wizardStep(page, 4).locator('.ant-alert-success').filter({ hasText: 'The import is done.' });
    await banner.waitFor();
    expect(await banner.locator('.ant-alert-icon').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(35, 120, 4)');

    // Back in step 2, the first file reads as imported, its switch off.
    await choosePipeline(page, COUNTRY_PIPELINE);
    const first = wizardStep(page, 1).locator('li').filter({ hasText: 'first.csv' }).first();
    await first.getByText(/^Imported \d{4}-\d\d-\d\d \d\d:\d\d:\d\d by import [0-9a-f]{8}$/).waitFor();
    await expect(first.getByRole('switch', { name: 'Take in next run: first.csv' }).isChecked()).resolves.toBe(false);

    const lines = await run(
      'second.csv',
      [GOOD_CSV.split('\n')[0], 'FR009,Garage Neuf,Nantes,44000,neuf@garage.example,3'].join('\n'),
    );
    expect(lines).toContain('Input dealers: 1 row from second.csv.');
    expect(lines.some((l) => l.includes('from first.csv'))).toBe(false);

    // The user finds their past imports in the logbook, from the menu, and reads the first run's logs.
    await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Consult' }).click();
    await waitForPage(page, '/consult/import');
    const mine = page.locator('.gdb-logbook-row').filter({ hasText: COUNTRY_PIPELINE });
    await expect.poll(() => mine.count()).toBeGreaterThanOrEqual(2);
    const names = await page.locator('.gdb-logbook-row .gdb-row-open').allTextContents();
    const { pipelines } = await apiAs<{ pipelines: { name: string }[] }>(page, '/users/pipelines');
    expect(names.every((n) => pipelines.some((p) => p.name === n))).toBe(true);
    await mine.nth(1).click();
    const details = page.locator('.gdb-logbook-details');
    await details.getByText(`Details for pipeline : ${COUNTRY_PIPELINE} started at : `).waitFor();
    await logLines(details).getByText('Input dealers: 3 rows from first.csv.', { exact: true }).waitFor();
  });
});

describe('live logs', () => {
  it('arrive in the wizard and the logbook details in order, without reload, and never to a user without rights', async () => {
    const manager = await open();
    await signIn(manager, USERS.manager);

    const other = await open();
    await signIn(other, USERS.other);
    await waitForPage(other, '/import/upload');
    await expect(other.getByLabel('Pipelines').getByText(SLOW_PIPELINE).count()).resolves.toBe(0);

    const page = await open();
    await signIn(page, USERS.user);
    const pipeline = await choosePipeline(page, SLOW_PIPELINE);
    await dropCsv(page, 'dealers', 'slow.csv', GOOD_CSV);
    await wizardStep(page, 2).getByRole('img', { name: 'valid' }).waitFor();
    await nextStep(page).click();
    await confirmRun(page, SLOW_PIPELINE);
    const step5 = wizardStep(page, 4);

    // The manager opens the logbook while the component runs; the details follow the run.
    await manager.goto('/consult/import');
    await waitForPage(manager, '/consult/import');
    const row = manager.locator('.gdb-logbook-row').filter({ hasText: SLOW_PIPELINE }).first();
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const details = manager.locator('.gdb-logbook-details');
    await logLines(details).getByText('Running the component on 3 input rows.', { exact: true }).waitFor();
    const whileRunning = await logLines(details).allTextContents();
    expect(whileRunning).not.toContain('Import done.');

    // A user without the pipeline asks the live channel for the run's logs: refused, nothing sent.
    const { records } = await apiAs<{ records: { _id: string; pipelineName: string | null }[] }>(
      manager,
      '/imports/listAll?pageNumber=0&nbItemsPerPage=9',
    );
    const importId = records.find((r) => r.pipelineName === SLOW_PIPELINE)?._id;
    expect(importId).toBeDefined();
    const otherToken = (await other.evaluate(() => localStorage.getItem('gdb-token'))) ?? '';
    const spy = await connectLive(baseUrl(), otherToken);
    try {
      spy.socket.emit('subscribe', { collectionName: 'logs', filter: { importId }, subscriptionId: 'spy', token: otherToken });
      spy.socket.emit('subscribe', {
        collectionName: 'imports',
        filter: { _id: importId },
        subscriptionId: 'spy-imports',
        token: otherToken,
      });

      for (const scope of [step5, details]) {
        await logLines(scope).getByText('Import done.', { exact: true }).waitFor({ timeout: 30_000 });
        const lines = (await logLines(scope).allTextContents()).reverse();
        const order = [
          `Import of pipeline ${SLOW_PIPELINE} (v1) started.`,
          'Running the component on 3 input rows.',
          'Checked 3 dealers slowly.',
          'Import done.',
        ].map((m) => lines.indexOf(m));
        expect(order.every((i) => i >= 0)).toBe(true);
        expect([...order].sort((a, b) => a - b)).toEqual(order);
      }
      expect(spy.exceptions.length).toBeGreaterThanOrEqual(1);
      const received = [...spy.inits.flatMap((i) => i.data), ...spy.changes.map((c) => c.data.fullDocument)];
      expect(received.filter((d) => d !== null)).toEqual([]);
    } finally {
      spy.close();
    }
    expect(await other.getByText('Checked 3 dealers slowly.').count()).toBe(0);
    expect(pipeline._id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a repeat job', () => {
  it('is scheduled weekly by a manager and listed in Manage jobs with its cron text', async () => {
    const page = await open();
    await signIn(page, USERS.manager);
    await choosePipeline(page, 'Dealers Germany');
    await dropCsv(page, 'dealers', 'germany.csv', GOOD_CSV.replaceAll('FR0', 'DE0'));
    await wizardStep(page, 2).getByRole('img', { name: 'valid' }).waitFor();
    await nextStep(page).click();

    // Later: the question names the date and time; No leaves everything as it was.
    await page.getByRole('radio', { name: 'Later' }).check();
    const date = page.getByLabel('Date', { exact: true });
    await date.click();
    await date.fill('2099-01-01');
    await date.press('Enter');
    await pickTime(page, '10:00');
    await nextStep(page).click();
    const later = page
      .getByRole('dialog')
      .filter({ hasText: 'Do you want to run the pipeline : Dealers Germany on 2099-01-01 at 10:00' });
    await later.getByRole('button', { name: 'No' }).click();
    await later.waitFor({ state: 'detached' });

    await page.getByRole('radio', { name: 'Repeat' }).check();
    await pickOption(page, 'Repeat kind', 'Weekly');
    await pickOption(page, 'Weekday', 'mon');
    await pickTime(page, '00:30');
    await nextStep(page).click();
    // The question names the pattern in words and as text.
    const repeat = page
      .getByRole('dialog')
      .filter({ hasText: 'Do you want to run the pipeline : Dealers Germany every Monday at 00:30 (30 0 * * mon)' });
    await repeat.getByRole('button', { name: 'Yes' }).click();
    // A manager stays in step 5, as a user does, the job a link away in the logbook.
    await wizardStep(page, 4)
      .getByRole('status')
      .getByText(/^The import will run at \d{4}-\d\d-\d\d 00:30:00\.$/)
      .waitFor();
    await expect(page.getByRole('link', { name: 'See this import in the logbook' }).getAttribute('href')).resolves.toMatch(
      /^\/consult\/import\?importId=[0-9a-f-]{36}&time=future$/,
    );

    await page.goto('/import/jobs');
    await waitForPage(page, '/import/jobs');
    const row = page.locator('.gdb-job-row').filter({ hasText: 'Dealers Germany' });
    await row.waitFor();
    await expect(row.locator('.gdb-job-when').textContent()).resolves.toBe(
      formatRepeatPattern({ kind: 'weekly', minute: 30, hour: 0, weekday: 'mon' }),
    );
    await expect(row.locator('.gdb-job-when-words').textContent()).resolves.toBe('every Monday at 00:30');
  });
});
