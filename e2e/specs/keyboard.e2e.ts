// What a keyboard user meets in the dialogs: each opens on its first field, Enter does what it
// says once, a question asks with its answer already focused, and the focus comes back to where
// the work goes on (the tree after a rename, Append after appending, the opener after a save,
// Versions after opening another version) rather than dropping to the page.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn, specBrowser, type TestPage, waitForPage } from '../support/browser.ts';
import { USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

/** A name no earlier run has used. */
const unique = (name: string) => `${name} ${Date.now().toString(36)}`;

/** True once the element has the keyboard focus. */
const focused = (locator: Locator) => expect.poll(() => locator.evaluate((el) => el === document.activeElement)).toBe(true);

/** The role and name of what has the focus, for the messages of failed checks. */
const focusedRole = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('role') ?? document.activeElement?.tagName);

async function open(user: (typeof USERS)[keyof typeof USERS], path: string): Promise<Page> {
  t = await spec.open();
  await signIn(t.page, user);
  await t.page.goto(path);
  await waitForPage(t.page, path);
  return t.page;
}

/** Presses Enter on a button, as a keyboard user opens it. */
async function pressOn(button: Locator): Promise<void> {
  await button.focus();
  await button.press('Enter');
}

describe('the keyboard in the pipeline folders', () => {
  it('creates a folder with Enter once, renames it inline and through its dialog, the focus back on the tree each time', async () => {
    const page = await open(USERS.manager, '/testing/index');
    const tree = page.getByRole('tree', { name: 'Pipeline folders' });
    await tree.getByRole('treeitem').first().waitFor();
    const name = unique('E2E keys');
    const row = (label: string) =>
      tree.getByRole('treeitem').filter({ has: page.locator('.gdb-explorer-label', { hasText: label }) });

    // Create Folder opens on its field; Enter creates the folder and does not open the dialog again.
    const createButton = page.getByRole('button', { name: 'Create Folder' });
    await pressOn(createButton);
    const create = page.getByRole('dialog', { name: 'Create Folder' });
    await focused(create.getByLabel('Folder name'));
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
    await create.waitFor({ state: 'detached' });
    await row(name).waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await row(name).count()).toBe(1);
    await focused(createButton);

    // Inline rename: Enter gives the focus back to the tree.
    await row(name).locator('.gdb-explorer-label').dblclick();
    const inline = page.getByLabel(`New name of ${name}`);
    await inline.fill(`${name} a`);
    await inline.press('Enter');
    await row(`${name} a`).waitFor();
    await focused(tree);

    // The Rename folder dialog opens on its Name field; Enter renames, and the tree has the focus again.
    await row(`${name} a`).hover();
    await row(`${name} a`)
      .getByRole('button', { name: `Actions for ${name} a` })
      .click();
    await page.getByRole('menuitem', { name: 'Rename folder', exact: true }).click();
    const rename = page.getByRole('dialog', { name: 'Rename folder' });
    await focused(rename.getByLabel('Name'));
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(`${name} b`);
    await page.keyboard.press('Enter');
    await row(`${name} b`).waitFor();
    await rename.waitFor({ state: 'detached' });
    await focused(tree);
    expect(await focusedRole(page)).toBe('tree');

    // Deleting it asks first; the answer focused is Yes.
    await row(`${name} b`).hover();
    await row(`${name} b`)
      .getByRole('button', { name: `Actions for ${name} b` })
      .click();
    await page.getByRole('menuitem', { name: 'Delete folder', exact: true }).click();
    const question = page.getByRole('dialog').filter({ hasText: `Delete folder ${name} b ?` });
    await focused(question.getByRole('button', { name: 'Yes' }));
    await page.keyboard.press('Enter');
    await row(`${name} b`).waitFor({ state: 'detached' });
    await focused(tree);
  });
});

describe('the keyboard in the data model editor', () => {
  it('opens New schema on its field, keeps the focus on Append, and asks to open another version with Yes focused', async () => {
    const page = await open(USERS.manager, '/manage/schemas');
    const name = unique('Keys');
    await pressOn(page.getByRole('button', { name: 'New schema' }));
    const dialog = page.getByRole('dialog', { name: 'New schema' });
    await focused(dialog.getByLabel('Name'));
    await page.keyboard.type(name);
    await page.keyboard.press('Enter');
    const node = (label: string) => page.locator('.gdb-schema-tree .gdb-schema-node-name').getByText(label, { exact: true });
    await node(name).waitFor();

    // Append → string: the focus stays on Append, ready for the next one.
    await node('properties').click();
    const append = page.getByRole('region', { name: 'Toolbox' }).getByRole('button', { name: 'Append …' });
    await pressOn(append);
    await page.getByRole('menuitem', { name: 'string', exact: true }).click();
    await node('newProperty').waitFor();
    await focused(page.getByRole('region', { name: 'Toolbox' }).getByRole('button', { name: 'Append …' }));

    // Save version 1, make version 2, then open version 1 again from the version selector.
    await page.getByRole('toolbar', { name: 'Schema' }).getByRole('button', { name: 'Save' }).click();
    const bar = page.getByRole('group', { name: 'Version' });
    await bar.getByText(`${name} (v.1 - Draft)`).waitFor();
    await bar.getByRole('button', { name: 'New version' }).click();
    const newVersion = page
      .getByRole('dialog')
      .filter({ hasText: 'version' })
      .filter({ has: page.getByRole('button', { name: 'Yes' }) });
    await focused(newVersion.getByRole('button', { name: 'Yes' }));
    await page.keyboard.press('Enter');
    await bar.getByText(`${name} (v.2 - Draft)`).waitFor();

    const versions = bar.getByRole('button', { name: 'Versions' });
    await pressOn(versions);
    const selector = page.getByRole('dialog', { name: 'Select a version' });
    const v1 = selector.locator('.gdb-version-node').filter({ hasText: 'V 1' });
    await v1.click();
    // React Flow's attribution link is not drawn.
    expect(await selector.locator('.react-flow__attribution').count()).toBe(0);
    await pressOn(selector.getByRole('button', { name: 'Open' }));
    const question = page.getByRole('dialog').filter({ hasText: 'Open version 1 ?' });
    await focused(question.getByRole('button', { name: 'Yes' }));
    await page.keyboard.press('Enter');
    await bar.getByText(`${name} (v.1 - Draft)`).waitFor();
    await focused(bar.getByRole('button', { name: 'Versions' }));
  });
});

describe('the keyboard in the users screen', () => {
  it('gives the focus back to the user it opened once the user dialog is saved', async () => {
    const page = await open(USERS.superAdmin, '/manage/users');
    const opener = page.getByRole('button', { name: 'Open user uma.user' });
    await pressOn(opener);
    const dialog = page.getByRole('dialog', { name: 'Update user' });
    // It opens on its first field.
    await focused(dialog.getByLabel('First name'));
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('.ant-message').getByText('The user data has been updated successfully.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await focused(page.getByRole('button', { name: 'Open user uma.user' }));
  });
});
