// Components as a manager builds them on the Components screen: two instruction components and a
// workflow running both through a link, code written in the editor and saved, the schematic with
// its ports, an instance followed, a test run read, and the locked version found read-only; and a
// super-admin cancelling a runaway test; a test's log lines read while it runs; test data loaded
// from a CSV and from a workbook. Every state is audited under the strict CSP.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn, specBrowser, type TestPage } from '../support/browser.ts';
import { replaceCode } from '../support/code-editor.ts';

/** Workbooks written by Excel's and LibreOffice's own code, kept with the server's reader tests. */
const EXCEL_CORPUS = path.resolve(import.meta.dirname, '../../packages/server/test/corpus/excel');

import { callFromPage as call } from '../support/page-api.ts';
import { USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

interface Saved {
  _id: string;
  name: string;
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').getByText(text, { exact: true }).last().waitFor();

/** Two instruction components passing rows on, and a workflow running them in a row. */
async function buildComponents(page: Page, tag: string) {
  const model = await call<Saved>(page, '/schemas', {
    name: `E2E rows ${tag}`,
    folder: null,
    jsonSchema: { type: 'array', items: { type: 'object', properties: { dealerId: { type: 'string' } } } },
  });
  const instruction = (name: string, jsCode: string) =>
    call<Saved>(page, '/components', {
      name,
      kind: 'instruction',
      inputs: [{ name: 'rows', inputSchema: model._id }],
      outputs: [{ name: 'rows', outputSchema: model._id }],
      jsCode,
    });
  const first = await instruction(`E2E clean ${tag}`, 'ctx.output.rows = ctx.input.rows;');
  const second = await instruction(`E2E mark ${tag}`, 'ctx.output.rows = ctx.input.rows;');
  const link = (name: string, from: [string, string], to: [string, string]) => ({
    name,
    fromInstance: from[0],
    fromPort: from[1],
    toInstance: to[0],
    toPort: to[1],
  });
  const workflow = await call<Saved>(page, '/components', {
    name: `E2E workflow ${tag}`,
    kind: 'workflow',
    inputs: [{ name: 'rows', inputSchema: model._id }],
    outputs: [{ name: 'rows', outputSchema: model._id }],
    instances: [
      { name: 'clean', instanceOf: first._id },
      { name: 'mark', instanceOf: second._id },
    ],
    links: [
      link('in', ['', 'rows'], ['clean', 'rows']),
      link('between', ['clean', 'rows'], ['mark', 'rows']),
      link('out', ['mark', 'rows'], ['', 'rows']),
    ],
  });
  return { model, first, second, workflow };
}

/** Replaces the text of the code editor in `scope` as a user types it. */
async function typeCode(page: Page, scope: ReturnType<Page['locator']>, code: string): Promise<void> {
  await replaceCode(page, scope.locator('.cm-content').first(), code);
}

/**
 * Opens the 'Test component' section: its header clicked until it says it is open (a click while
 * the page above it still lays out can miss it).
 */
async function openTestSection(page: Page): Promise<void> {
  const header = page.getByRole('button', { name: 'Test component' });
  await expect
    .poll(async () => {
      if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
      return header.getAttribute('aria-expanded');
    })
    .toBe('true');
}

describe('the Components screen', () => {
  it('writes code in the editor, draws the workflow, follows an instance, runs a test and locks the component', async () => {
    t = await spec.open();
    const page = t.page;
    await signIn(page, USERS.manager);
    const { second, workflow } = await buildComponents(page, 'one');

    await page.goto(`/manage/components?id=${second._id}`);
    await page.getByRole('heading', { name: second.name }).waitFor();
    await page.getByRole('button', { name: 'Edit code' }).click();
    const dialog = page.getByRole('dialog', { name: second.name });
    await dialog.getByText('dealerId : string').first().waitFor();
    await typeCode(page, dialog, "ctx.output.rows = ctx.input.rows.map((r) => ({ ...r, marked: true })); ctx.log('marked');");
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await toast(page, 'Component saved');

    await page.goto(`/manage/components?id=${workflow._id}`);
    await page.getByRole('heading', { name: workflow.name }).waitFor();
    await page.getByText('View component schematic').click();
    const schematic = page.getByRole('figure', { name: 'Component schematic' });
    await schematic.getByText('between', { exact: true }).waitFor();
    expect(await schematic.getByText('{dealerId: string}[]').count()).toBeGreaterThan(0);

    await openTestSection(page);
    const input = page.getByRole('region', { name: 'ctx.input' });
    await typeCode(page, input, '{"rows": [{"dealerId": "D1"}]}');
    await page.getByRole('button', { name: 'Run test' }).click();
    const output = page.getByRole('region', { name: 'ctx.output' });
    await expect.poll(() => output.textContent(), { timeout: 60_000 }).toContain('"marked": true');
    await expect.poll(() => page.getByRole('region', { name: 'Logs' }).textContent()).toContain('marked');

    await schematic.getByRole('link', { name: `${second.name} v1` }).click();
    await page.getByRole('heading', { name: second.name }).waitFor();
    expect(new URL(page.url()).searchParams.get('id')).toBe(second._id);
    const trail = page.getByRole('navigation', { name: 'Opened components' });
    await trail.getByRole('button', { name: workflow.name }).waitFor();

    await page.getByRole('group', { name: 'Version' }).getByRole('button', { name: 'Lock' }).click();
    const question = page.getByRole('dialog').filter({ hasText: 'Lock version 1 ?' });
    await question.getByLabel('Also lock the drafts it depends on').check();
    await question.getByRole('button', { name: 'Yes' }).click();
    await toast(page, 'Version 1 locked');
    await expect.poll(() => page.locator('.gdb-component-form .cm-content').first().getAttribute('aria-readonly')).toBe('true');
    expect(t.problems.csp).toEqual([]);
  }, 180_000);

  it('lets a super-admin cancel a runaway test', async () => {
    t = await spec.open();
    const page = t.page;
    await signIn(page, USERS.superAdmin);
    const runaway = await call<Saved>(page, '/components', {
      name: 'E2E runaway',
      kind: 'instruction',
      inputs: [],
      outputs: [{ name: 'out' }],
      jsCode: "ctx.log('spinning'); while (true) {}",
    });
    await page.goto(`/manage/components?id=${runaway._id}`);
    await page.getByRole('heading', { name: runaway.name }).waitFor();
    await openTestSection(page);
    await page.getByRole('button', { name: 'Run test' }).click();
    // Its line streams while it runs; cancelling mid-stream keeps it.
    const logs = page.getByRole('log', { name: 'Logs' });
    await logs.getByText('spinning', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Cancel test' }).click();
    await page.getByRole('button', { name: 'Cancel test' }).waitFor({ state: 'detached' });
    expect(await logs.textContent()).toContain('spinning');
    expect(t.problems.csp).toEqual([]);
  });

  it("shows a test's first log line while the run goes on, then the rest once, with the answer", async () => {
    t = await spec.open();
    const page = t.page;
    await signIn(page, USERS.manager);
    const slow = await call<Saved>(page, '/components', {
      name: 'E2E slow logger',
      kind: 'instruction',
      inputs: [],
      outputs: [{ name: 'out' }],
      // The sandbox has no timers: the code keeps its isolate busy for a second between its lines.
      jsCode:
        "ctx.log('first line'); const end = Date.now() + 1000; while (Date.now() < end) {} ctx.log('second line'); ctx.output.out = 1;",
    });
    await page.goto(`/manage/components?id=${slow._id}`);
    await page.getByRole('heading', { name: slow.name }).waitFor();
    await openTestSection(page);
    await page.getByRole('button', { name: 'Run test' }).click();
    const logs = page.getByRole('log', { name: 'Logs' });
    await logs.getByText('first line', { exact: false }).waitFor();
    expect(await logs.textContent()).not.toContain('second line');
    expect(await page.getByRole('region', { name: 'ctx.output' }).textContent()).not.toContain('"out"');
    await logs.getByText('second line', { exact: false }).waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'ctx.output' }).textContent()).toContain('"out": 1');
    expect((await logs.textContent())?.match(/first line/g)).toHaveLength(1);
    expect((await logs.textContent())?.match(/second line/g)).toHaveLength(1);
    expect(t.problems.csp).toEqual([]);
  });

  it("loads a CSV file's rows into ctx.input through 'Load ...'", async () => {
    t = await spec.open();
    const page = t.page;
    await signIn(page, USERS.manager);
    const { first } = await buildComponents(page, 'load');
    await page.goto(`/manage/components?id=${first._id}`);
    await page.getByRole('heading', { name: first.name }).waitFor();
    await openTestSection(page);
    await page.getByRole('button', { name: 'Load ...' }).click();
    const dialog = page.getByRole('dialog', { name: 'Load test data' });
    const csv = 'dealerId,name\nD1,North\nD2,South\n';
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'dealers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await toast(page, '2 rows loaded into ctx.input.rows');
    const input = page.getByRole('region', { name: 'ctx.input' });
    await expect.poll(() => input.textContent()).toContain('"dealerId": "D2"');

    // A workbook LibreOffice saved, its first two sheets hidden: the rows of the first visible one.
    await page.getByRole('button', { name: 'Load ...' }).click();
    await page
      .getByRole('dialog', { name: 'Load test data' })
      .locator('input[type=file]')
      .setInputFiles(path.join(EXCEL_CORPUS, 'lo-hidden-first.xlsx'));
    await toast(page, '1 row loaded into ctx.input.rows');
    await expect.poll(() => input.textContent()).toContain('"code": "H1"');
    expect(await input.textContent()).not.toContain('OLD');
    expect(t.problems.csp).toEqual([]);
  });
});
