// A new import built in the product from nothing, on a fresh install without the demo: a manager
// generates a data model from an example CSV and locks it, writes an instruction component over it,
// makes a master pipeline and a country pipeline inheriting it; an admin gives the country
// pipeline to a user, who uploads a CSV with an invalid row, sees it reported, runs the import and
// exports the mapped rows. Then the manager locks both pipelines, makes a new component version,
// updates both onto it and locks them again, and the user's next import runs the new version.
// The tests of this file run in order, each on what the one before made.
import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { closePage, launchBrowser, newPage, signIn, type TestPage, waitForPage } from '../support/browser.ts';
import { codeEditor, replaceCode } from '../support/code-editor.ts';
import { type SpecServer, startSpecServer } from '../support/server.ts';
import { USERS } from '../support/users.ts';

const MODEL = 'Journey dealer';
const COMPONENT = 'Journey mapper';
const MASTER = 'Journey master';
const COUNTRY = 'Journey France';
const SOURCE = 'dealers';

const EXAMPLE_CSV = ['code,name,city,vehicles', 'FR001,Garage du Centre,Lyon,42', 'FR002,Auto Sud,Marseille,17', ''].join('\n');
/** Three rows, the third without the name the generated data model requires. */
const UPLOAD_ROWS = ['code,name,city,vehicles', 'FR101,Garage du Lac,Annecy,12', 'FR102,Nord Motors,Lille,8'];
const INVALID_CSV = [...UPLOAD_ROWS, 'FR103,,Paris,3', ''].join('\n');
const VALID_CSV = [...UPLOAD_ROWS, ''].join('\n');

const CODE_V1 = `ctx.output.dealers = ctx.input.dealers.map((d) => ({ code: d.code, name: d.name.toUpperCase(), city: d.city }));
ctx.log.info('Mapped ' + ctx.input.dealers.length + ' dealers.');`;
const CODE_V2 = `ctx.output.dealers = ctx.input.dealers.map((d) => ({ code: d.code, name: d.name.toUpperCase(), city: d.city.toUpperCase() }));
ctx.log.info('Mapped ' + ctx.input.dealers.length + ' dealers, cities in capitals.');`;

let server: SpecServer;
let browser: Browser;
let pages: TestPage[] = [];

/** What the tests hand on: the reference values the master was given, as the wizard's filters name them. */
const chosen = { brand: '', locale: '', productLine: '', datakind: '' };

async function open(): Promise<Page> {
  const t = await newPage(browser, server.baseUrl);
  pages.push(t);
  return t.page;
}

beforeAll(async () => {
  server = await startSpecServer({ TFA_REQUIRED: 'none', WEB_DIST: inject('webDist') }, { bare: true });
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

afterEach(async ({ task }) => {
  const failed = task.result?.state === 'fail';
  for (const [i, t] of pages.entries()) await closePage(t, `${task.name}-${i}`, failed);
  pages = [];
  if (failed) process.stderr.write(`journey server output:\n${server.output()}\n`);
});

const toast = (page: Page, text: string) =>
  page.locator('.ant-message-notice').getByText(text, { exact: true }).last().waitFor({ timeout: 20_000 });

/** Answers Yes to the confirmation that says `text`. */
async function confirm(page: Page, text: string | RegExp): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: text });
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Picks `option` in the select labelled `label` (its options are titled by their text). */
async function pickOption(page: Page, label: string, option: string, within: Page | Locator = page): Promise<void> {
  await within.getByLabel(label, { exact: true }).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

/** Picks the first option of the select labelled `label`; answers its text. */
async function pickFirst(page: Page, label: string): Promise<string> {
  await page.getByLabel(label, { exact: true }).click();
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
  const title = (await option.getAttribute('title')) ?? '';
  await option.click();
  return title;
}

/** Opens the menu of the explorer's root row `label` and picks `entry`. */
async function rootMenu(page: Page, tree: string, label: string, entry: string): Promise<void> {
  const row = page
    .getByRole('tree', { name: tree })
    .getByRole('treeitem')
    .filter({ has: page.locator('.gdb-explorer-label', { hasText: new RegExp(`^${label}$`) }) });
  await row.hover();
  await row.getByRole('button', { name: `Actions for ${label}` }).click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
}

const versionBar = (page: Page) => page.getByRole('group', { name: 'Version' });

/** Opens the component from the explorer of the component editor. */
async function openComponent(page: Page): Promise<void> {
  await page.goto('/manage/components');
  await waitForPage(page, '/manage/components');
  await page
    .getByRole('tree', { name: 'Components' })
    .locator('.gdb-explorer-label')
    .getByText(COMPONENT, { exact: true })
    .click();
  await page.getByRole('heading', { name: COMPONENT, exact: true }).waitFor();
}

/** Types the component's code into its Code field, whatever editor draws it. */
async function typeCode(page: Page, code: string): Promise<void> {
  await replaceCode(page, codeEditor(page), code);
}

async function saveComponent(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await toast(page, 'Component saved');
}

/** Locks the open document's version `n` from its version bar. */
async function lockFromBar(page: Page, n: number): Promise<void> {
  await versionBar(page).getByRole('button', { name: 'Lock' }).click();
  await confirm(page, `Lock version ${n} ?`);
  await toast(page, `Version ${n} locked`);
}

async function newPipeline(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New pipeline' }).click();
  const dialog = page.getByRole('dialog', { name: 'New pipeline' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: `MASTER Pipeline [${name}]` }).waitFor();
}

const nextStep = (page: Page) => page.getByRole('button', { name: 'Next step' });
const wizardStep = (page: Page, step: number) => page.locator(`.gdb-wizard-step[data-step="${step}"]`);
const logLines = (scope: Locator) => scope.locator('.gdb-log-message');
const sourceCard = (page: Page, step: number) => wizardStep(page, step).locator('.ant-card').filter({ hasText: SOURCE });

/** Opens the wizard and chooses the country pipeline through brand, locale, product line and datakind. */
async function chooseCountry(page: Page): Promise<void> {
  await page.goto('/import/upload');
  await waitForPage(page, '/import/upload');
  await pickOption(page, 'Brand', chosen.brand);
  await pickOption(page, 'Locale', chosen.locale);
  await pickOption(page, 'Product line', chosen.productLine);
  await pickOption(page, 'Datakind', chosen.datakind);
  await page.getByLabel('Pipelines').getByText(COUNTRY, { exact: true }).click();
  await expect.poll(() => nextStep(page).isEnabled()).toBe(true);
  await nextStep(page).click();
}

/** Step 2: drops a CSV on the data source's zone and sends it; step 3 shows its check. */
async function dropCsv(page: Page, name: string, content: string): Promise<Locator> {
  const card = sourceCard(page, 1);
  await card.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content) });
  await card.getByText(name, { exact: true }).waitFor();
  await nextStep(page).click();
  await wizardStep(page, 2).waitFor();
  return sourceCard(page, 2);
}

/** Step 3 shows the upload `name` checked valid, its log the one shown. */
async function checkedValid(card: Locator, name: string): Promise<void> {
  await expect
    .poll(async () => {
      const lines = await logLines(card).allTextContents();
      return [lines[0]?.startsWith(`File ${name} received`), lines.at(-1)];
    })
    .toEqual([true, '2 rows read, all valid.']);
  await card.getByRole('img', { name: 'valid', exact: true }).first().waitFor();
}

/**
 * Step 3 → 5: runs the import now; answers the lines of its log once 'Import done.' and the component's own
 * `line` have arrived (a busy machine may deliver the component's lines after the run's end).
 */
async function runNow(page: Page, line: string): Promise<string[]> {
  await nextStep(page).click();
  await expect(page.getByRole('radio', { name: 'Now' }).isChecked()).resolves.toBe(true);
  await nextStep(page).click();
  const dialog = page.getByRole('dialog').filter({ hasText: `Do you want to run the pipeline : ${COUNTRY}` });
  await dialog.getByRole('button', { name: 'Yes' }).click();
  const step5 = wizardStep(page, 4);
  await logLines(step5).getByText('Import done.', { exact: true }).waitFor({ timeout: 30_000 });
  await logLines(step5).getByText(line, { exact: true }).waitFor({ timeout: 10_000 });
  return logLines(step5).allTextContents();
}

/** Exports the newest output file of the country pipeline's sink; answers its lines. */
async function exportOutput(page: Page): Promise<string[]> {
  await page.goto('/export/index');
  await waitForPage(page, '/export/index');
  await page.getByLabel('Pipelines').getByText(COUNTRY, { exact: true }).click();
  const outputs = page.locator('.gdb-export-files[data-title="Output files"]');
  const row = outputs
    .locator('tbody tr')
    .filter({ has: page.getByRole('cell', { name: SOURCE, exact: true }) })
    .first();
  await row.waitFor();
  await row.getByRole('checkbox').check();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
  return (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
}

/** Checks the row of `name` at `version` in the open tab's list, then starts the tab's action. */
async function startOn(page: Page, action: 'Start lock' | 'Start update', name: string, version: number): Promise<void> {
  await page
    .getByRole('tabpanel')
    .getByRole('checkbox', { name: `${name} v${version}`, exact: true })
    .check();
  await page.getByRole('button', { name: action }).click();
}

/** Locks the master at `version`, then its country once listed, from the Lock tab. */
async function lockBoth(page: Page, version: number): Promise<void> {
  await page.goto('/manage/update-lock-pipeline');
  await waitForPage(page, '/manage/update-lock-pipeline');
  await page.getByRole('tab', { name: 'Lock version' }).click();
  const list = page.getByRole('tabpanel');
  await list.getByText(MASTER, { exact: true }).waitFor();
  expect(await list.getByText(COUNTRY, { exact: true }).count()).toBe(0);
  await startOn(page, 'Start lock', MASTER, version);
  await toast(page, `Version ${version} locked`);
  await list.getByText(COUNTRY, { exact: true }).waitFor();
  await startOn(page, 'Start lock', COUNTRY, version);
  await list.getByText(COUNTRY, { exact: true }).waitFor({ state: 'detached' });
}

describe('a new import built in the product, on a fresh install without the demo', () => {
  it('a manager generates a data model from an example CSV and locks it', async () => {
    const page = await open();
    await signIn(page, USERS.manager);
    await page.goto('/manage/schemas');
    await waitForPage(page, '/manage/schemas');
    // No demo: once the tree shows, none of its data models is there.
    const tree = page.getByRole('tree', { name: 'Data models' });
    await tree.locator('.gdb-explorer-label').getByText('Data models', { exact: true }).waitFor();
    await expect(tree.getByText(/^Dealer/).count()).resolves.toBe(0);

    const toolbar = page.getByRole('toolbar', { name: 'Schema' });
    await toolbar.getByRole('button', { name: 'New schema' }).click();
    const named = page.getByRole('dialog', { name: 'New schema' });
    await named.getByLabel('Name').fill(MODEL);
    await named.getByLabel('Name').press('Enter');
    await toolbar.getByRole('button', { name: 'Import example' }).click();
    const example = page.getByRole('dialog', { name: 'Import example' });
    await example
      .getByLabel('Example file')
      .setInputFiles({ name: 'dealers.csv', mimeType: 'text/csv', buffer: Buffer.from(EXAMPLE_CSV) });
    await example.getByText('dealers.csv', { exact: true }).waitFor();
    await example.getByRole('button', { name: 'Generate' }).click();
    await example.waitFor({ state: 'detached' });
    for (const field of ['code', 'name', 'city', 'vehicles']) {
      await page.locator('.gdb-schema-tree .gdb-schema-node-name').getByText(field, { exact: true }).waitFor();
    }
    await toolbar.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Schema saved');
    await versionBar(page).getByText(`${MODEL} (v.1 - Draft)`).waitFor();
    await lockFromBar(page, 1);
    await versionBar(page).getByText(`${MODEL} (v.1 - Prod)`).waitFor();
  });

  it('writes an instruction component whose input port checks each row against it and whose code maps the rows', async () => {
    const page = await open();
    await signIn(page, USERS.manager);
    await page.goto('/manage/components');
    await waitForPage(page, '/manage/components');
    await rootMenu(page, 'Components', 'Components', 'New component');
    const named = page.getByRole('dialog', { name: 'New component' });
    await named.getByLabel('Name').fill(COMPONENT);
    await named.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: COMPONENT, exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add Inputs' }).click();
    const input = page.getByRole('group', { name: 'Inputs 1' });
    await input.getByLabel('Name', { exact: true }).fill(SOURCE);
    await pickOption(page, 'Schema', `${MODEL} (v.1 - Prod)`, input);
    await input.locator('[data-field-path$="inputIsJoin"]').getByLabel('True', { exact: true }).check();
    await page.getByRole('button', { name: 'Add Outputs' }).click();
    await page.getByRole('group', { name: 'Outputs 1' }).getByLabel('Name', { exact: true }).fill(SOURCE);
    await typeCode(page, CODE_V1);
    await saveComponent(page);
    await versionBar(page).getByText(`${COMPONENT} (v.1 - Draft)`).waitFor();
  });

  it('makes a master pipeline invoking the component, with a manual CSV source and a CSV sink, and a country pipeline inheriting it', async () => {
    const page = await open();
    await signIn(page, USERS.manager);
    await page.goto('/manage/pipeline');
    await waitForPage(page, '/manage/pipeline');
    await newPipeline(page, MASTER);
    await page.getByLabel('Choose a component').fill(COMPONENT);
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item').filter({ hasText: COMPONENT }).first().click();
    await page.getByRole('button', { name: 'Add Data sources' }).click();
    const source = page.getByRole('group', { name: 'Data sources 1' });
    await source.getByLabel('Data sub kind').fill(SOURCE);
    await pickOption(page, 'Schema', `${MODEL} (v.1 - Prod)`, source);
    await page.getByRole('button', { name: 'Add Data sinks' }).click();
    await page.getByRole('group', { name: 'Data sinks 1' }).getByLabel('Output port').fill(SOURCE);
    chosen.brand = await pickFirst(page, 'Brand');
    const locale = (await pickFirst(page, 'Locale')).match(/\((\w+)_(\w+)\)$/);
    chosen.locale = `${locale?.[1]}-${locale?.[2]}`;
    chosen.productLine = await pickFirst(page, 'Product line');
    chosen.datakind = await pickFirst(page, 'Datakind');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Pipeline saved');

    await newPipeline(page, COUNTRY);
    await page.locator('[data-field-path="isMaster"]').getByLabel('False').check();
    await pickOption(page, 'Pipeline', `${MASTER} (v.1 - Draft)`);
    // Choosing the master copies its component, sources, sinks and reference values.
    await expect.poll(() => page.locator('.gdb-document-picker-name .ant-select-content').first().textContent()).toBe(COMPONENT);
    await expect
      .poll(() => page.getByRole('group', { name: 'Data sources 1' }).getByLabel('Data sub kind').inputValue())
      .toBe(SOURCE);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Pipeline saved');
    await page.getByRole('heading', { name: `Country Pipeline [${COUNTRY}]` }).waitFor();
  });

  it('an admin gives the country pipeline to a user', async () => {
    const page = await open();
    await signIn(page, USERS.admin);
    await page.goto('/manage/users');
    await waitForPage(page, '/manage/users');
    await page
      .getByRole('row', { name: new RegExp(USERS.user.userName.replace('.', '\\.')) })
      .getByText(USERS.user.userName, { exact: true })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Update user' });
    await dialog.getByLabel(`Select ${COUNTRY} (v.1)`, { exact: true }).check();
    await dialog.locator('.ant-transfer-actions button:not([disabled])').first().click();
    await dialog.locator('.gdb-pipeline-transfer').getByText(`${COUNTRY} (v.1)`).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await toast(page, 'The user data has been updated successfully.');
  });

  it('the user uploads a CSV with an invalid row, sees it reported, runs the import now and exports the mapped rows', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    await chooseCountry(page);
    const invalid = await dropCsv(page, 'dealers.csv', INVALID_CSV);
    await invalid.getByRole('img', { name: 'invalid' }).waitFor();
    await expect
      .poll(async () => (await logLines(invalid).allTextContents()).join('\n'))
      .toContain('Row 4, name: no value, and one is required');
    await expect
      .poll(async () => (await logLines(invalid).allTextContents()).at(-1))
      .toMatch(/^3 rows read, 1 invalid \(1 problem/);
    await expect(nextStep(page).isDisabled()).resolves.toBe(true);

    // The file again without its invalid row: checked valid, it is the one the run takes.
    await page.getByRole('button', { name: 'Prev step' }).click();
    await checkedValid(await dropCsv(page, 'dealers-valid.csv', VALID_CSV), 'dealers-valid.csv');
    const lines = await runNow(page, 'Mapped 2 dealers.');
    expect(lines).toContain(`Import of pipeline ${COUNTRY} (v1) started.`);

    const rows = await exportOutput(page);
    expect(rows).toEqual(['code,name,city', 'FR101,GARAGE DU LAC,Annecy', 'FR102,NORD MOTORS,Lille']);
  });

  it('the manager locks both pipelines, makes a new component version, updates both and locks them again', async () => {
    const page = await open();
    await signIn(page, USERS.manager);
    // The component first: a locked master invokes a locked component.
    await openComponent(page);
    await lockFromBar(page, 1);
    await lockBoth(page, 1);

    // Version 2 of the component, capitals for the cities too, locked in turn.
    await openComponent(page);
    await versionBar(page).getByRole('button', { name: 'Unlock' }).click();
    await confirm(page, /Unlock version 1/);
    await toast(page, 'Version 2 created');
    await versionBar(page).getByText(`${COMPONENT} (v.2 - Draft)`).waitFor();
    await typeCode(page, CODE_V2);
    await saveComponent(page);
    await lockFromBar(page, 2);

    // The Update tab lists the master; its country once the master is on the new version.
    await page.goto('/manage/update-lock-pipeline');
    await waitForPage(page, '/manage/update-lock-pipeline');
    await page.getByRole('tab', { name: 'Update version' }).click();
    await page.getByRole('tabpanel').getByText(MASTER, { exact: true }).waitFor();
    await startOn(page, 'Start update', MASTER, 1);
    await toast(page, `${MASTER} : Version 1 updated to version 2`);
    await startOn(page, 'Start update', COUNTRY, 1);
    await toast(page, `${COUNTRY} : Version 1 updated to version 2`);

    // Locked, version 2 is what the user's lists offer.
    await lockBoth(page, 2);
  });

  it('the user runs the import again, on the new country version', async () => {
    const page = await open();
    await signIn(page, USERS.user);
    await chooseCountry(page);
    await checkedValid(await dropCsv(page, 'dealers-again.csv', VALID_CSV), 'dealers-again.csv');
    const lines = await runNow(page, 'Mapped 2 dealers, cities in capitals.');
    expect(lines).toContain(`Import of pipeline ${COUNTRY} (v2) started.`);
    const rows = await exportOutput(page);
    expect(rows).toEqual(['code,name,city', 'FR101,GARAGE DU LAC,ANNECY', 'FR102,NORD MOTORS,LILLE']);
  });
});
