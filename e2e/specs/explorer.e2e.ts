// The folder explorer as people work with it: a manager arranges the pipeline folders of the
// testing view and the data models of their editor; an admin puts a read badge on a folder and a
// manager without it no longer sees it.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closePage, launchBrowser, newPage, signIn, type TestPage, waitForPage } from '../support/browser.ts';
import { COUNTRY_PIPELINE } from '../support/pipelines.ts';
import { type E2eUser, USERS } from '../support/users.ts';

let browser: Browser;
const pages: TestPage[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});
afterEach(async ({ task }) => {
  for (const t of pages.splice(0)) await closePage(t, task.name, task.result?.state === 'fail');
});

/** These tests sign in several times and reload: more than the default minute on a busy machine. */
const SIGN_INS_TIMEOUT = 150_000;

/** A name no earlier run has used. */
const unique = (name: string) => `${name} ${Date.now().toString(36)}`;

/** Signs `user` in, in a new context, and opens the testing view. */
async function testingView(user: E2eUser): Promise<Page> {
  const t = await newPage(browser);
  pages.push(t);
  await signIn(t.page, user);
  await t.page.goto('/testing/index');
  await waitForPage(t.page, '/testing/index');
  return t.page;
}

/** Calls the API from the page with the signed-in user's token; answers the envelope's data. */
async function call(page: Page, method: string, path: string, body?: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(`/gdb-importer/v1${path}`, {
        method,
        headers: {
          'x-token': localStorage.getItem('gdb-token') ?? '',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const answer = (await res.json()) as { code: number; message: string; data: unknown };
      if (answer.code !== 20000) throw new Error(`${method} ${path}: ${answer.message}`);
      return answer.data;
    },
    { method, path, body },
  );
}

/** The explorer of the page: the testing view's pipeline folders, or the data models of their editor. */
const tree = (page: Page) =>
  page.getByRole('tree', { name: new URL(page.url()).pathname === '/manage/schemas' ? 'Data models' : 'Pipeline folders' });

/** The tree row labelled `label`. */
const row = (page: Page, label: string): Locator =>
  tree(page)
    .getByRole('treeitem')
    .filter({
      has: page.locator('.gdb-explorer-label', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    });

/** Opens the row's menu and picks `entry`. */
async function menu(page: Page, label: string, entry: string): Promise<void> {
  await row(page, label).hover();
  await row(page, label)
    .getByRole('button', { name: `Actions for ${label}` })
    .click();
  await page.getByRole('menuitem', { name: entry, exact: true }).click();
}

/** The level of the row in the tree (1 for the root). */
const level = async (page: Page, label: string) => Number(await row(page, label).getAttribute('aria-level'));

/** The label of the folder holding the row: the nearest row above it one level up. */
async function folderOf(page: Page, label: string): Promise<string | undefined> {
  return tree(page).evaluate((el, wanted) => {
    const rows = [...el.querySelectorAll('[role=treeitem]')];
    const text = (r: Element) => r.querySelector('.gdb-explorer-label')?.textContent ?? '';
    const at = rows.findIndex((r) => text(r) === wanted);
    const lvl = Number(rows[at]?.getAttribute('aria-level'));
    for (let i = at - 1; i >= 0; i -= 1) {
      if (Number(rows[i]?.getAttribute('aria-level')) === lvl - 1) return text(rows[i] as Element);
    }
    return undefined;
  }, label);
}

describe('a manager arranging the pipeline folders', () => {
  it(
    'creates folders, drags a pipeline into one and back, renames one inline and deletes them after confirming',
    async () => {
      const page = await testingView(USERS.manager);
      await row(page, COUNTRY_PIPELINE).waitFor();
      const first = unique('E2E shelf');
      const second = unique('E2E drawer');
      const renamed = `${second} renamed`;

      // The testing view's Create Folder makes a folder in the root.
      await page.getByRole('button', { name: 'Create Folder' }).click();
      const create = page.getByRole('dialog', { name: 'Create Folder' });
      await expect.poll(() => create.getByRole('button', { name: 'Validate' }).isDisabled()).toBe(true);
      await create.getByLabel('Folder name').fill(first);
      await create.getByRole('button', { name: 'Validate' }).click();
      await row(page, first).waitFor();
      expect(await level(page, first)).toBe(2);

      // The root's menu: New folder, Enter confirms.
      await menu(page, 'Pipelines', 'New folder');
      const named = page.getByRole('dialog', { name: 'New folder' });
      await expect.poll(() => named.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
      await named.getByLabel('Name').fill(second);
      await named.getByLabel('Name').press('Enter');
      await row(page, second).waitFor();

      // Drag the pipeline into the first folder, then back to the root.
      await row(page, COUNTRY_PIPELINE).dragTo(row(page, first));
      await expect.poll(() => folderOf(page, COUNTRY_PIPELINE)).toBe(first);
      await page.reload();
      await row(page, COUNTRY_PIPELINE).waitFor();
      expect(await folderOf(page, COUNTRY_PIPELINE)).toBe(first);
      await row(page, COUNTRY_PIPELINE).dragTo(row(page, 'Pipelines'));
      await expect.poll(() => folderOf(page, COUNTRY_PIPELINE)).toBe('Pipelines');

      // Rename inline: a double-click, the new name, Enter.
      await row(page, second).locator('.gdb-explorer-label').dblclick();
      const field = page.getByLabel(`New name of ${second}`);
      await field.fill(renamed);
      await field.press('Enter');
      await row(page, renamed).waitFor();
      expect(await row(page, second).count()).toBe(0);

      // Delete, after the question; No keeps the folder.
      await menu(page, renamed, 'Delete folder');
      const question = page.locator('.ant-modal-confirm');
      await question.getByText(`Delete folder ${renamed} ?`).waitFor();
      await question.getByRole('button', { name: 'No' }).click();
      await question.waitFor({ state: 'detached' });
      expect(await row(page, renamed).count()).toBe(1);
      await menu(page, renamed, 'Delete folder');
      await question.getByRole('button', { name: 'Yes' }).click();
      await row(page, renamed).waitFor({ state: 'detached' });
      await menu(page, first, 'Delete folder');
      await question.getByRole('button', { name: 'Yes' }).click();
      await row(page, first).waitFor({ state: 'detached' });
    },
    SIGN_INS_TIMEOUT,
  );
});

describe('a manager arranging the data models', () => {
  it(
    'creates a folder and a data model, drags the data model into the folder, then deletes both after confirming',
    async () => {
      const t = await newPage(browser);
      pages.push(t);
      const page = t.page;
      await signIn(page, USERS.manager);
      await page.goto('/manage/schemas');
      await waitForPage(page, '/manage/schemas');
      await row(page, 'Data models').waitFor();
      const shelf = unique('E2E models');
      const model = unique('E2E model');

      await menu(page, 'Data models', 'New folder');
      const named = page.getByRole('dialog', { name: 'New folder' });
      await named.getByLabel('Name').fill(shelf);
      await named.getByLabel('Name').press('Enter');
      await row(page, shelf).waitFor();

      await menu(page, 'Data models', 'New schema');
      const created = page.getByRole('dialog', { name: 'New schema' });
      await expect.poll(() => created.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true);
      await created.getByLabel('Name').fill(model);
      await created.getByRole('button', { name: 'Create' }).click();
      await row(page, model).waitFor();
      expect(await folderOf(page, model)).toBe('Data models');

      await row(page, model).dragTo(row(page, shelf));
      await expect.poll(() => folderOf(page, model)).toBe(shelf);

      await menu(page, model, 'Delete schema');
      const question = page.locator('.ant-modal-confirm');
      await question.getByText(`Delete schema [${model}] ?`).waitFor();
      await question.getByRole('button', { name: 'Yes' }).click();
      await row(page, model).waitFor({ state: 'detached' });
      await menu(page, shelf, 'Delete folder');
      await question.getByText(`Delete folder ${shelf} ?`).waitFor();
      await question.getByRole('button', { name: 'Yes' }).click();
      await row(page, shelf).waitFor({ state: 'detached' });
    },
    SIGN_INS_TIMEOUT,
  );
});

describe('an admin putting a read badge on a folder', () => {
  it(
    'hides the folder from a manager (and the admin) who do not hold the badge; a super-admin sees its expression',
    async () => {
      const boss = await testingView(USERS.superAdmin);
      // A long badge name: the folder's name must stay readable beside it.
      const badge = unique('E2E readers of regional dealer nets');
      const folder = unique('E2E restricted');
      const readers = (await call(boss, 'POST', '/tags', { name: badge, type: 'project', color: '#aa3355' })) as { _id: string };
      const made = (await call(boss, 'POST', '/folders', { name: folder, kind: 'pipeline' })) as { id: string };

      try {
        const before = await testingView(USERS.manager);
        await row(before, folder).waitFor();

        const admin = await testingView(USERS.admin);
        await menu(admin, folder, 'Manage badges');
        const dialog = admin.getByRole('dialog', { name: `Manage badges of ${folder}` });
        await dialog.getByRole('group', { name: 'Read badges' }).getByRole('checkbox', { name: badge }).check();
        await dialog.getByRole('button', { name: 'Save' }).click();
        // The admin does not hold the badge: they are told what saving does to them before it is saved.
        const warning = admin.locator('.ant-modal-confirm');
        await warning.getByText(`After this change you can no longer read ${folder}`, { exact: false }).waitFor();
        await warning.getByRole('button', { name: 'Yes' }).click();
        await dialog.waitFor({ state: 'detached' });
        await admin.locator('.ant-message').getByText(`Badges of ${folder} saved`).waitFor();
        // The admin does not hold the badge either: the folder leaves their tree too.
        await row(admin, folder).waitFor({ state: 'detached' });
        // A super-admin still sees it, with its read expression.
        await boss.reload();
        await row(boss, folder).getByText(`R: ${badge}`).waitFor();
        // The name stays visible beside the long expression, which gives way first.
        const name = row(boss, folder).locator('.gdb-explorer-label');
        expect(await name.isVisible()).toBe(true);
        expect((await name.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(80);

        const after = await testingView(USERS.manager);
        await row(after, COUNTRY_PIPELINE).waitFor();
        expect(await row(after, folder).count()).toBe(0);
      } finally {
        await call(boss, 'DELETE', '/folders', { id: made.id, kind: 'pipeline', withFolders: true, withDocuments: false });
        await call(boss, 'DELETE', `/tags?ids=${readers._id}`);
      }
    },
    SIGN_INS_TIMEOUT,
  );
});

describe('the system data models in the data model tree', () => {
  it(
    'are hidden from a manager and shown to a super-admin',
    async () => {
      const open = async (user: E2eUser) => {
        const t = await newPage(browser);
        pages.push(t);
        await signIn(t.page, user);
        await t.page.goto('/manage/schemas');
        await waitForPage(t.page, '/manage/schemas');
        await tree(t.page).getByRole('treeitem').first().waitFor();
        return t.page;
      };
      const boss = await open(USERS.superAdmin);
      await row(boss, 'rt-pipeline').waitFor();
      const manager = await open(USERS.manager);
      await row(manager, 'Data models').waitFor();
      const labels = await tree(manager).locator('.gdb-explorer-label').allTextContents();
      expect(labels.filter((l) => l.startsWith('rt-'))).toEqual([]);
    },
    SIGN_INS_TIMEOUT,
  );
});
