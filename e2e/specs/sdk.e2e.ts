// The SDK editor as a super-admin works with it: write a function that uses an allowed npm module,
// save it, read its vulnerability report, run its test (its log lines showing while it runs), find
// the component that calls it in Usages and the function on the documentation page; a manager
// cannot open the editor.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn, specBrowser, type TestPage, waitForPage, where } from '../support/browser.ts';
import { codeEditor, codeOf, replaceCode } from '../support/code-editor.ts';
import { callFromPage } from '../support/page-api.ts';
import { USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

/** Signing in, bundling a module and running tests: more than the default minute on a busy machine. */
const TIMEOUT = 150_000;

const toast = (page: Page, text: string | RegExp): Locator => page.locator('.ant-message').getByText(text);

/** The explorer row labelled `label`. */
const row = (page: Page, label: string): Locator =>
  page
    .getByRole('tree', { name: 'SDK functions' })
    .getByRole('treeitem')
    .filter({ has: page.locator('.gdb-explorer-label', { hasText: new RegExp(`^${label}$`) }) });

/** Opens the row's menu and picks `entry`. */
async function menu(page: Page, label: string, entry: string): Promise<void> {
  await row(page, label).hover();
  await row(page, label)
    .getByRole('button', { name: `Actions for ${label}` })
    .click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
}

/** The form 'Build the sdk'. */
const form = (page: Page): Locator => page.locator('.gdb-sdk-form');

const CODE = `async function (date) {
  const dayjs = require('dayjs');
  console.log('formatting ' + date);
  return dayjs(date).format('DD/MM/YYYY');
}`;

/** New sdk in the explorer's root: the function opens with the default code and its address. */
async function createFunction(page: Page, name: string): Promise<string> {
  await menu(page, 'SDK functions', 'New sdk');
  const named = page.getByRole('dialog', { name: 'New sdk' });
  await named.getByLabel('Name').fill(name);
  await named.getByRole('button', { name: 'Create' }).click();
  await toast(page, /^sdk saved, id : [0-9a-f-]{36}$/).waitFor();
  await page.getByRole('heading', { name, exact: true }).waitFor();
  const id = new URL(page.url()).searchParams.get('id') ?? '';
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id;
}

describe('SDK editor', () => {
  it(
    'a super-admin writes a function using dayjs, saves it, reads its report, runs it, and finds it in Usages and the documentation',
    async () => {
      t = await spec.open();
      const page = t.page;
      await signIn(page, USERS.superAdmin);
      await page.goto('/manage/sdk');
      await waitForPage(page, '/manage/sdk');
      const name = `formatDate${Date.now().toString(36)}`;
      const id = await createFunction(page, name);
      // A new function starts as an asynchronous function answering a sentence.
      await expect.poll(() => codeOf(codeEditor(form(page)))).toContain('async function');

      // No module yet: the check ran and found nothing.
      const clear = page
        .getByRole('region', { name: 'Vulnerable packages' })
        .getByText('No vulnerable packages', { exact: true });
      await clear.waitFor();
      expect(await clear.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(35, 120, 4)');

      await form(page).getByLabel('Documentation').fill('Formats an ISO date as DD/MM/YYYY.');
      await form(page).getByLabel('Input').fill('date: an ISO date');
      await form(page).getByRole('button', { name: 'Add Modules' }).click();
      await form(page).getByRole('group', { name: 'Modules 1' }).getByRole('textbox').fill('dayjs');
      await replaceCode(page, codeEditor(form(page)), CODE);
      // The creation's toast says the same words: the save's is told once it has gone.
      await toast(page, `sdk saved, id : ${id}`).waitFor({ state: 'detached' });
      await form(page).getByRole('button', { name: 'Save' }).first().click();
      await toast(page, `sdk saved, id : ${id}`).waitFor();

      // The demo advisory set marks every dayjs 1.x: the report re-read after the save lists it.
      const report = page.getByRole('region', { name: 'Vulnerable packages' });
      await report.getByText(/^1 vulnerable package: dayjs@\d+\.\d+\.\d+$/).waitFor();
      await report.getByRole('cell', { name: /DEMO-2026-0001/ }).waitFor();
      await form(page).getByRole('button', { name: 'Recheck for vulnerabilities' }).click();
      await report.getByText(/^1 vulnerable package: dayjs@/).waitFor();
      expect(await report.getByText('No vulnerable packages').count()).toBe(0);

      const args = page.getByLabel('Arguments (a JSON array)');
      await args.fill('["2026-03-01"]');
      await page.getByRole('button', { name: 'Run test' }).click();
      const output = page.getByRole('region', { name: 'Output' });
      await output.waitFor();
      expect(await output.textContent()).toBe('"01/03/2026"');
      await page.getByText('formatting 2026-03-01').waitFor();

      // A component that calls the function: Usages lists it with a link to it.
      const component = await callFromPage<{ _id: string; name: string }>(page, '/components', {
        name: `Uses ${name}`,
        folder: null,
        kind: 'instruction',
        jsCode: `ctx.output.out = await sdk.${name}('2026-03-01');`,
        sdk: [id],
      });
      await form(page).getByRole('button', { name: 'Usages' }).click();
      const usages = page.getByRole('dialog', { name: 'Usages' });
      const link = usages.getByRole('link', { name: component.name });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe(`/manage/components?id=${component._id}`);
      await usages.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
      await usages.waitFor({ state: 'detached' });

      await page.goto('/manage/documentation');
      await waitForPage(page, '/manage/documentation');
      await page
        .getByRole('listbox', { name: 'SDK functions' })
        .getByRole('option', { name: `${name} (v.1 - Draft)` })
        .click();
      const entry = page.getByRole('region', { name });
      await entry.getByText('Formats an ISO date as DD/MM/YYYY.').waitFor();
      await entry.getByText('date: an ISO date').waitFor();
      expect(t.problems.csp).toEqual([]);
      expect(t.problems.errors).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "shows a test's first log line while the run goes on, then the rest once, with the answer",
    async () => {
      t = await spec.open();
      const page = t.page;
      await signIn(page, USERS.superAdmin);
      const name = `slowLogger${Date.now().toString(36)}`;
      // The sandbox has no timers: the function keeps its isolate busy for a second between its lines.
      const saved = await callFromPage<{ _id: string }>(page, '/sdk', {
        functionName: name,
        jsCode: [
          'async function (n) {',
          "  console.log('first line');",
          '  const end = Date.now() + 1000;',
          '  while (Date.now() < end) {}',
          "  console.log('second line');",
          '  return n * 2;',
          '}',
        ].join('\n'),
        testPayload: [21],
      });
      await page.goto(`/manage/sdk?id=${saved._id}`);
      await page.getByRole('heading', { name, exact: true }).waitFor();
      await page.getByRole('button', { name: 'Run test' }).click();
      const logs = page.getByRole('log', { name: 'Logs' });
      await logs.getByText('first line', { exact: false }).waitFor();
      expect(await logs.textContent()).not.toContain('second line');
      expect(await page.getByRole('region', { name: 'Output' }).count()).toBe(0);
      await logs.getByText('second line', { exact: false }).waitFor();
      const output = page.getByRole('region', { name: 'Output' });
      await output.waitFor();
      expect(await output.textContent()).toBe('42');
      expect((await logs.textContent())?.match(/first line/g)).toHaveLength(1);
      expect((await logs.textContent())?.match(/second line/g)).toHaveLength(1);
      expect(t.problems.csp).toEqual([]);
      expect(t.problems.errors).toEqual([]);
    },
    TIMEOUT,
  );

  it('a manager cannot open /manage/sdk and has no Sdk entry', async () => {
    t = await spec.open();
    const page = t.page;
    await signIn(page, USERS.manager);
    await page.goto('/manage/sdk');
    await waitForPage(page, '/unauthorized/index');
    expect(where(page)).toBe('/unauthorized/index');
    expect(await page.getByRole('complementary', { name: 'Sidebar' }).getByRole('link', { name: 'Sdk' }).count()).toBe(0);
  });
});
