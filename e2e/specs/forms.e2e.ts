// The dynamic forms as an author of data models meets them: the Data Models page's "Show UI"
// drawer draws a data model as its form, with Validate and Reset.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { signIn, specBrowser, type TestPage } from '../support/browser.ts';
import { HOSTILE_SCHEMA, MALLORY, STORED_HOSTILE_MODEL } from '../support/models.ts';
import { USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

/** Calls the API from the page with the signed-in user's token; answers the envelope's data. */
async function call(page: Page, method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await attempt(page, method, path, body);
  if (answer.code !== 20000) throw new Error(`${method} ${path}: ${answer.message}`);
  return answer.data;
}

/** Calls the API from the page with the signed-in user's token; answers the whole envelope. */
async function attempt(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ code: number; message: string; data: unknown }> {
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
      return (await res.json()) as { code: number; message: string; data: unknown };
    },
    { method, path, body },
  );
}

/** Signs in as a super-admin, opens the data model `name` in its editor, and its Show UI drawer. */
async function showUi(name: string): Promise<{ page: Page; drawer: Locator }> {
  t = await spec.open();
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

  it('an ajax rule asks the listed check service, waits with its message, and a new edit cancels the pending check', async () => {
    const checks = inject('checkUrl');
    t = await spec.open();
    await signIn(t.page, USERS.superAdmin);
    const name = await saveModel(t.page, `Form ajax ${Date.now()}`, {
      type: 'object',
      properties: {
        model: {
          type: 'string',
          title: 'Dealer code',
          rules: {
            ajax: {
              value: { remoteUrl: `${checks}free`, paramName: 'name', resField: 'free' },
              options: { delay: 1500, delayMsg: 'Looking the code up…' },
            },
          },
        },
      },
    });
    await t.context.close();
    const { page, drawer } = await showUi(name);
    const asked: { name: string; token: string | undefined }[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(checks)) return;
      asked.push({ name: new URL(r.url()).searchParams.get('name') ?? '', token: r.headers()['x-token'] });
    });
    const field = drawer.locator('[data-field-path="model"]');
    const input = drawer.getByLabel('Dealer code');
    await input.fill('taken-1');
    await field.getByText('Looking the code up…').waitFor();
    await input.fill('taken-2');
    await field.getByText('Looking the code up…').waitFor();
    await field.getByText('Ajax validation failed').waitFor({ timeout: 10_000 });
    expect(asked).toEqual([{ name: 'taken-2', token: undefined }]);
    await input.fill('FR-0042');
    await field.getByText('Looking the code up…').waitFor();
    await field.getByText('Looking the code up…').waitFor({ state: 'detached', timeout: 10_000 });
    expect(await field.getAttribute('data-field-status')).toBe('valid');
    expect(asked.map((a) => a.name)).toEqual(['taken-2', 'FR-0042']);
    expect(t?.problems.csp).toEqual([]);
  });

  it("a manager's data model cannot create a super-admin with the rights of the super-admin who opens it", async () => {
    // The manager saves the escalating rule: refused, the rule's path named.
    t = await spec.open();
    await signIn(t.page, USERS.manager);
    const refused = await attempt(t.page, 'POST', '/schemas', {
      name: `Dealer contact ${Date.now()}`,
      folder: null,
      jsonSchema: HOSTILE_SCHEMA,
    });
    expect(refused.message).toBe('The ajax rule at properties.contact.rules.ajax: An ajax rule is sent only as GET, not post');
    await t.context.close();

    // A super-admin opens the one stored before, in Show UI, and types.
    const { page, drawer } = await showUi(STORED_HOSTILE_MODEL);
    const sent: { method: string; url: string; token: string | undefined }[] = [];
    page.on('request', (r) => sent.push({ method: r.method(), url: r.url(), token: r.headers()['x-token'] }));
    expect(await drawer.getByRole('alert').textContent()).toBe(
      'Ajax validation not run: The ajax rule at properties.contact.rules.ajax: An ajax rule is sent only as GET, not post',
    );
    const field = drawer.locator('[data-field-path="contact"]');
    await drawer.getByLabel('Contact last name').fill('Escalated');
    const notRun = 'Ajax validation not run: An ajax rule is sent only as GET, not post';
    await field.getByText(notRun).waitFor();
    await drawer.getByRole('button', { name: 'Validate' }).click();
    await field.getByText(notRun).waitFor();
    expect(await field.getAttribute('data-field-status')).toBe('invalid');
    expect(sent.filter((r) => r.method !== 'GET' || new URL(r.url).pathname.includes('/users'))).toEqual([]);

    const users = (await call(page, 'GET', '/users')) as { email: string; firstName: string }[];
    expect(users.filter((u) => u.email === MALLORY.email || u.firstName === MALLORY.firstName)).toEqual([]);
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
