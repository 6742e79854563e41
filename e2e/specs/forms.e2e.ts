// The dynamic forms as an author of data models meets them: the Data Models page's "Show UI"
// drawer draws a data model as its form, with Validate and Reset.
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closePage, launchBrowser, newPage, signIn, type TestPage } from '../support/browser.ts';
import { USERS } from '../support/users.ts';

let browser: Browser;
let t: TestPage | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});
afterEach(async ({ task }) => {
  await closePage(t, task.name, task.result?.state === 'fail');
  t = undefined;
});

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

/** Signs in as a super-admin, opens the data model `name` in its editor, and its Show UI drawer. */
async function showUi(name: string): Promise<{ page: Page; drawer: Locator }> {
  t = await newPage(browser);
  const page = t.page;
  await signIn(page, USERS.superAdmin);
  const model = (await call(page, 'GET', `/schemas/byname?name=${encodeURIComponent(name)}`)) as { _id: string };
  await page.goto(`/manage/schemas?id=${model._id}`);
  await page.getByRole('button', { name: 'Show UI' }).click();
  const drawer = page.getByRole('dialog', { name: 'Show UI' });
  await drawer.getByRole('button', { name: 'Validate' }).waitFor();
  return { page, drawer };
}

/** Saves a new data model (as its editor's Save would) and answers its name. */
async function saveModel(page: Page, name: string, jsonSchema: unknown): Promise<string> {
  await call(page, 'POST', '/schemas', { name, folder: null, jsonSchema });
  return name;
}

describe('the form of a data model, in the Show UI drawer', () => {
  it('rt-pipeline: fails on a required field, scrolls to it, passes once it is filled', async () => {
    const { page, drawer } = await showUi('rt-pipeline');
    const body = drawer.locator('.ant-drawer-body');
    // Scrolled to the bottom, the Name field at the top is out of view.
    await body.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await drawer.getByRole('button', { name: 'Validate' }).click();
    const nameField = drawer.locator('[data-field-path="name"]');
    await nameField.getByText('is required').waitFor();
    await page.waitForTimeout(700);
    const box = await nameField.boundingBox();
    const view = await body.boundingBox();
    expect(box && view && box.y >= view.y && box.y + box.height <= view.y + view.height).toBe(true);
    await drawer.getByLabel('Name', { exact: true }).fill('Dealers Spain');
    await nameField.getByText('is required').waitFor({ state: 'detached' });
    await drawer.getByRole('button', { name: 'Validate' }).click();
    await drawer.getByText('Validation passed').waitFor();
    expect(t?.problems.errors).toEqual([]);
    expect(t?.problems.csp).toEqual([]);
  });

  it('rt-pipeline: data sources are added, moved and deleted, deleting after a confirmation', async () => {
    const { page, drawer } = await showUi('rt-pipeline');
    const add = drawer.getByRole('button', { name: 'Add Data sources' });
    await add.click();
    await add.click();
    const subKinds = drawer.getByLabel('Data sub kind');
    await subKinds.nth(0).fill('prices');
    await subKinds.nth(1).fill('stocks');
    const values = () => subKinds.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    await drawer.getByRole('button', { name: 'Down Data sources 1' }).click();
    expect(await values()).toEqual(['stocks', 'prices']);
    await drawer.getByRole('button', { name: 'Up Data sources 2' }).click();
    expect(await values()).toEqual(['prices', 'stocks']);

    await drawer.getByRole('button', { name: 'Del Data sources 1' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure to delete this item?' });
    expect(await confirm.locator('.ant-modal-confirm-title').textContent()).toBe('Confirmation');
    await confirm.getByRole('button', { name: 'No' }).click();
    expect(await values()).toEqual(['prices', 'stocks']);
    await drawer.getByRole('button', { name: 'Del Data sources 1' }).click();
    await page
      .getByRole('dialog')
      .filter({ hasText: 'Are you sure to delete this item?' })
      .getByRole('button', { name: 'Yes' })
      .click();
    await expect.poll(values).toEqual(['stocks']);

    await drawer.getByRole('button', { name: 'Delete All Data sources' }).click();
    await page
      .getByRole('dialog')
      .filter({ hasText: 'Are you sure to delete all?' })
      .getByRole('button', { name: 'Yes' })
      .click();
    await expect.poll(() => subKinds.count()).toBe(0);
  });

  it('an ajax rule waits with its message, and a new edit cancels the pending check', async () => {
    t = await newPage(browser);
    await signIn(t.page, USERS.superAdmin);
    const name = await saveModel(t.page, `Form ajax ${Date.now()}`, {
      type: 'object',
      properties: {
        model: {
          type: 'string',
          title: 'Existing data model',
          rules: {
            ajax: {
              value: { remoteUrl: '/schemas/byname', paramName: 'name', resField: 'name' },
              options: { delay: 1500, delayMsg: 'Looking the data model up…' },
            },
          },
        },
      },
    });
    await t.context.close();
    const { page, drawer } = await showUi(name);
    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith('/schemas/byname') && url.searchParams.get('name') !== name)
        asked.push(url.searchParams.get('name') ?? '');
    });
    const field = drawer.locator('[data-field-path="model"]');
    const input = drawer.getByLabel('Existing data model');
    await input.fill('rt-pipeline');
    await field.getByText('Looking the data model up…').waitFor();
    await input.fill('no-such-model');
    await field.getByText('Looking the data model up…').waitFor();
    await field.getByText('Ajax validation failed').waitFor({ timeout: 10_000 });
    expect(asked).toEqual(['no-such-model']);
    await input.fill('rt-component');
    await field.getByText('Looking the data model up…').waitFor();
    await field.getByText('Looking the data model up…').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await field.getAttribute('data-field-status')).toBe('valid');
    expect(asked).toEqual(['no-such-model', 'rt-component']);
  });

  it('every stored data model of the editors draws as a form with no error', async () => {
    const { page } = await showUi('rt-pipeline');
    for (const name of ['rt-component', 'rt-sdk-schema', 'rt-endpoint-info', 'rt-listener-info', 'rt-source-endpoint']) {
      const model = (await call(page, 'GET', `/schemas/byname?name=${name}`)) as { _id: string };
      await page.goto(`/manage/schemas?id=${model._id}`);
      await page.getByRole('button', { name: 'Show UI' }).click();
      const drawer = page.getByRole('dialog', { name: 'Show UI' });
      await drawer.getByRole('button', { name: 'Validate' }).waitFor();
      expect(await drawer.locator('.ant-alert').count()).toBe(0);
      await drawer.getByRole('button', { name: 'Validate' }).click();
      await drawer.locator('[data-field-status="invalid"]').first().waitFor();
    }
    expect(t?.problems.errors).toEqual([]);
    expect(t?.problems.csp).toEqual([]);
  });
});
