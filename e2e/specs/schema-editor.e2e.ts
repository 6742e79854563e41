// The data model editor as a manager works with it: build a data model in the tree editor, undo
// and redo, save, lock, make version 2 and change a field, then bring a data model that uses
// version 1 up to version 2 through the update preview and see its new version open; then the same
// for the demo component, whose input port uses the demo's locked data model.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_COMPONENT, DEMO_PORT_MODEL } from '../../packages/server/src/modules/demo/demo.seed.ts';
import { seriousViolations } from '../support/axe.ts';
import { signIn, specBrowser, type TestPage, waitForPage, where } from '../support/browser.ts';
import { USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

/** A node of the tree editor, by its name. */
const node = (page: Page, name: string): Locator =>
  page.locator('.gdb-schema-tree .gdb-schema-node-name').getByText(name, { exact: true });

const toast = (page: Page, text: string): Locator => page.locator('.ant-message').getByText(text, { exact: true });

/** Answers Yes to the confirmation that says `text`. */
async function confirm(page: Page, text: string | RegExp): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: text });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Selects a node, then appends a node of `kind` below it from the toolbox. */
async function append(page: Page, parent: string, kind: string): Promise<void> {
  await node(page, parent).click();
  await page.getByRole('region', { name: 'Toolbox' }).getByRole('button', { name: 'Append …' }).click();
  await page.getByRole('menuitem', { name: kind, exact: true }).click();
}

/** Renames the selected node through the property inspector. */
async function renameSelected(page: Page, name: string): Promise<void> {
  const field = page.getByRole('region', { name: 'Node' }).getByLabel('Name', { exact: true });
  await field.fill(name);
  await field.press('Enter');
  await node(page, name).waitFor();
}

/** New schema → name it → an object with its properties. */
async function newSchema(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New schema' }).click();
  const dialog = page.getByRole('dialog', { name: 'New schema' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Name').press('Enter');
  await node(page, name).waitFor();
}

async function save(page: Page, existing: string | null): Promise<void> {
  await page.getByRole('toolbar', { name: 'Schema' }).getByRole('button', { name: 'Save' }).click();
  if (existing) await confirm(page, `Do you want to save schema ${existing} ?`);
  await toast(page, 'Schema saved').first().waitFor();
}

const versionBar = (page: Page) => page.getByRole('group', { name: 'Version' });

/** Opens a data model from the explorer on the left. */
async function openFromList(page: Page, name: string): Promise<void> {
  await page.getByRole('tree', { name: 'Data models' }).locator('.gdb-explorer-label').getByText(name, { exact: true }).click();
  await node(page, name).waitFor();
}

/** Opens a component from the explorer of the component editor. */
async function openComponent(page: Page, name: string): Promise<void> {
  await page.getByRole('tree', { name: 'Components' }).locator('.gdb-explorer-label').getByText(name, { exact: true }).click();
  await page.getByRole('heading', { name, exact: true }).waitFor();
}

describe('data model editor', () => {
  it('builds, saves, locks and versions a data model, and updates a data model that uses it', async () => {
    t = await spec.open();
    const { page } = t;
    await signIn(page, USERS.manager);
    await page.goto('/manage/schemas');
    await waitForPage(page, '/manage/schemas');

    // Build "Vehicle": plate (string, required) and seats (integer).
    await newSchema(page, 'Vehicle');
    await append(page, 'properties', 'string');
    await renameSelected(page, 'plate');
    await page.getByRole('checkbox', { name: 'Required' }).check();
    await append(page, 'properties', 'integer');
    await renameSelected(page, 'seats');

    // Undo the rename, then redo it.
    await page.getByRole('button', { name: 'Undo' }).click();
    await node(page, 'newProperty').waitFor();
    expect(await node(page, 'seats').count()).toBe(0);
    await page.getByRole('button', { name: 'Redo' }).click();
    await node(page, 'seats').waitFor();

    // The JSON view shows the schema, indented by 4 spaces.
    await page.getByRole('tab', { name: 'JSON' }).click();
    await expect.poll(() => page.getByLabel('JSON schema').inputValue()).toContain('\n    "type": "object"');
    expect(JSON.parse(await page.getByLabel('JSON schema').inputValue())).toEqual({
      type: 'object',
      properties: { plate: { type: 'string' }, seats: { type: 'integer' } },
      required: ['plate'],
    });
    await page.getByRole('tab', { name: 'Tree' }).click();

    await save(page, null);
    await page.waitForURL(/\/manage\/schemas\?id=/);
    const vehicleV1 = new URL(page.url()).searchParams.get('id');
    await versionBar(page).getByText('Vehicle (v.1 - Draft)').waitFor();

    // The editor passes the accessibility check.
    expect(await seriousViolations(page)).toEqual([]);

    // Lock version 1: it becomes read-only.
    await versionBar(page).getByRole('button', { name: 'Lock' }).click();
    await confirm(page, 'Lock version 1 ?');
    await toast(page, 'Version 1 locked').waitFor();
    await versionBar(page).getByText('Vehicle (v.1 - Prod)').waitFor();
    await expect
      .poll(() => page.getByRole('toolbar', { name: 'Schema' }).getByRole('button', { name: 'Save' }).isDisabled())
      .toBe(true);

    // "Fleet" uses version 1 of Vehicle through a reference.
    await newSchema(page, 'Fleet');
    await append(page, 'properties', 'object');
    await renameSelected(page, 'vehicle');
    await node(page, 'vehicle').click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Select Referenced Schema' }).click();
    const refDialog = page.getByRole('dialog', { name: 'Select Referenced Schema' });
    await refDialog.getByRole('combobox', { name: 'Schema' }).fill('Vehicle');
    await page.locator('.ant-select-item-option').filter({ hasText: 'Vehicle (v.1 - Prod)' }).click();
    await refDialog.getByRole('button', { name: 'OK' }).click();
    await page.locator('.gdb-schema-tree').getByText(`ref → ${vehicleV1}`).waitFor();
    await save(page, null);
    await versionBar(page).getByText('Fleet (v.1 - Draft)').waitFor();

    // Version 2 of Vehicle, with a field changed.
    await openFromList(page, 'Vehicle');
    await versionBar(page).getByRole('button', { name: 'Unlock' }).click();
    await confirm(page, /Unlock version 1/);
    await toast(page, 'Version 2 created').waitFor();
    await versionBar(page).getByText('Vehicle (v.2 - Draft)').waitFor();
    await node(page, 'seats').click();
    await renameSelected(page, 'capacity');
    await save(page, 'Vehicle');

    // Everything so far ran without a page error or a refused inline style.
    expect(t.problems.errors).toEqual([]);
    expect(t.problems.csp).toEqual([]);

    // Fleet: the update preview proposes version 2; proceeding opens Fleet's new version.
    await openFromList(page, 'Fleet');
    const fleetV1 = where(page);
    await versionBar(page).getByRole('button', { name: 'Update' }).click();
    const preview = page.getByRole('dialog').filter({ hasText: 'Proceed to update ...' });
    await preview.getByRole('cell', { name: 'Vehicle', exact: true }).waitFor();
    await preview.getByRole('cell', { name: '(v.2 - Draft)' }).waitFor();
    await preview.getByRole('button', { name: 'Proceed to update ...' }).click();
    await toast(page, 'Fleet : Version 1 updated to version 2').waitFor();
    await versionBar(page).getByText('Fleet (v.2 - Draft)').waitFor();
    expect(where(page)).not.toBe(fleetV1);
    await page.getByRole('tab', { name: 'JSON' }).click();
    await expect.poll(() => page.getByLabel('JSON schema').inputValue()).not.toContain(String(vehicleV1));

    expect(t.problems.errors).toEqual([]);
    expect(t.problems.csp).toEqual([]);
  }, 180_000);
});

describe('component editor', () => {
  it('brings a component up to the new version of the data model its input port uses', async () => {
    t = await spec.open();
    const { page } = t;
    await signIn(page, USERS.manager);
    await page.goto('/manage/schemas');
    await waitForPage(page, '/manage/schemas');

    // The demo's port data model is locked at version 1: Unlock makes version 2, where a field changes.
    await openFromList(page, DEMO_PORT_MODEL);
    await versionBar(page).getByText(`${DEMO_PORT_MODEL} (v.1 - Prod)`).waitFor();
    await versionBar(page).getByRole('button', { name: 'Unlock' }).click();
    await confirm(page, /Unlock version 1/);
    await toast(page, 'Version 2 created').waitFor();
    await versionBar(page).getByText(`${DEMO_PORT_MODEL} (v.2 - Draft)`).waitFor();
    await node(page, 'postalCode').click();
    await renameSelected(page, 'zipCode');
    await save(page, DEMO_PORT_MODEL);

    // The demo component still uses version 1; its form shows it, editable as a draft.
    await page.goto('/manage/components');
    await waitForPage(page, '/manage/components');
    await openComponent(page, DEMO_COMPONENT);
    await page.waitForURL(/\/manage\/components\?id=/);
    const componentV1 = where(page);
    await versionBar(page).getByText(`${DEMO_COMPONENT} (v.1 - Draft)`).waitFor();
    const build = page.getByRole('button', { name: 'Build the component' });
    expect(await build.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.getByLabel('Name', { exact: true }).first().inputValue()).toBe(DEMO_COMPONENT);
    expect(await seriousViolations(page)).toEqual([]);

    // Update: the preview proposes the data model's version 2; proceeding opens the component's version 2.
    await versionBar(page).getByRole('button', { name: 'Update' }).click();
    const preview = page.getByRole('dialog').filter({ hasText: 'Proceed to update ...' });
    const row = preview.getByRole('row').filter({ hasText: DEMO_PORT_MODEL });
    await row.getByRole('cell', { name: '(v.1 - Prod)' }).waitFor();
    await row.getByRole('cell', { name: '(v.2 - Draft)' }).waitFor();
    await preview.getByRole('button', { name: 'Proceed to update ...' }).click();
    await toast(page, `${DEMO_COMPONENT} : Version 1 updated to version 2`).waitFor();
    await versionBar(page).getByText(`${DEMO_COMPONENT} (v.2 - Draft)`).waitFor();
    expect(where(page)).not.toBe(componentV1);

    // The new draft saves from the form.
    await page.getByLabel('Description', { exact: true }).fill('Checks and maps the dealer rows of a file.');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await toast(page, 'Component saved').waitFor();

    expect(t.problems.errors).toEqual([]);
    expect(t.problems.csp).toEqual([]);
  }, 180_000);
});
