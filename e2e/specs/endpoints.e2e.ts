// Endpoints and listeners as a manager works with them: a pipeline whose data source is an
// endpoint is published from the wizard's step 2, its key shown once and its OpenAPI document
// read; a system calls it with the key, the import it starts is found in the logbook, and the
// endpoint is un-published on the Endpoints screen, after which the key opens nothing. A pipeline
// fed by RabbitMQ is published as an AMQP listener and each server's consumer reports its state,
// in the panel and on the Listeners screen.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { baseUrl, signIn, specBrowser, type TestPage, waitForPage } from '../support/browser.ts';
import { callFromPage as call } from '../support/page-api.ts';
import { COUNTRY_PIPELINE } from '../support/pipelines.ts';
import { USERS } from '../support/users.ts';

/** RabbitMQ of every development and CI machine (docs/operations.md). */
const AMQP_URL = 'amqp://127.0.0.1:5672';

const spec = specBrowser();
let t: TestPage | undefined;

interface Reference {
  _id: string;
  name: string;
}
interface Pipeline {
  _id: string;
  name: string;
  component: string | null;
  dataSources: { dataSubKind: string; dataModel: string | null }[];
  dataSinks: unknown[];
  brand: Reference;
  locale: Reference & { language: string; country: string };
  productLine: Reference;
  datakind: Reference;
}

const toast = (page: Page, text: string) =>
  page.locator('.ant-message-notice').getByText(text, { exact: true }).last().waitFor({ timeout: 20_000 });

async function pickOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

/** Answers Yes to the confirmation that says `text`. */
async function confirm(page: Page, text: string): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: text });
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * A copy of the demo country pipeline whose 'dealers' source is pushed from outside (an endpoint
 * taking JSON, or a listener), made through the API as the Pipelines screen would save it.
 */
async function pipelineFedBy(page: Page, connectorType: 'endpoint' | 'listener', name: string): Promise<Pipeline> {
  const { pipelines } = await call<{ pipelines: Pipeline[] }>(page, '/users/pipelines');
  const demo = pipelines.find((p) => p.name === COUNTRY_PIPELINE);
  if (!demo) throw new Error(`${COUNTRY_PIPELINE} is not among the manager's pipelines`);
  const dealers = demo.dataSources.find((s) => s.dataSubKind === 'dealers');
  return call<Pipeline>(page, '/pipelines', {
    name,
    // No master: a country pipeline takes its master's data sources, and this one has its own.
    isMaster: false,
    component: demo.component,
    dataSources: [{ dataSubKind: 'dealers', connectorType, contentType: 'json', dataModel: dealers?.dataModel ?? null }],
    dataSinks: demo.dataSinks,
    brand: demo.brand._id,
    locale: demo.locale._id,
    productLine: demo.productLine._id,
    datakind: demo.datakind._id,
  });
}

/** Opens the wizard, chooses the pipeline through the four filters and goes on to step 2. */
async function openStep2(page: Page, p: Pipeline): Promise<Locator> {
  await page.goto('/import/upload');
  await waitForPage(page, '/import/upload');
  await pickOption(page, 'Brand', p.brand.name);
  await pickOption(page, 'Locale', `${p.locale.language}-${p.locale.country}`);
  await pickOption(page, 'Product line', p.productLine.name);
  await pickOption(page, 'Datakind', p.datakind.name);
  await page.getByLabel('Pipelines').getByText(p.name, { exact: true }).click();
  const next = page.getByRole('button', { name: 'Next step' });
  await expect.poll(() => next.isEnabled()).toBe(true);
  await next.click();
  const panel = page.locator('.gdb-publish-panel').filter({ hasText: 'dealers' });
  await panel.waitFor();
  return panel;
}

describe('an endpoint, as a manager publishes it', () => {
  it('publishes from the wizard, reads its OpenAPI, is called with its key, shows in the logbook and is un-published', async () => {
    t = await spec.open();
    const page = t.page;
    await signIn(page, USERS.manager);
    const tag = Date.now().toString(36);
    const p = await pipelineFedBy(page, 'endpoint', `Dealers endpoint ${tag}`);
    const panel = await openStep2(page, p);

    // The rt-endpoint-info form proposes the pipeline's name; the path is the manager's choice.
    const path = `e2e/dealers-${tag}`;
    await panel.getByLabel('Path', { exact: true }).fill(path);
    await panel.getByRole('button', { name: 'Publish', exact: true }).click();
    await toast(page, 'Pipeline is successfully published');
    const key = (await panel.locator('.gdb-publish-key code').textContent()) ?? '';
    expect(key.length).toBeGreaterThan(30);
    await panel.getByText(/it will not be shown again/).waitFor();
    await panel.getByRole('button', { name: 'Re-Publish', exact: true }).waitFor();
    const route = `${baseUrl()}/gdb-runtime/v1/${path}`;
    await panel.locator('.gdb-publish-status code').getByText(route, { exact: true }).waitFor();

    // View OpenAPI: the document callers read, its one path the endpoint's.
    await panel.getByRole('button', { name: 'View OpenAPI' }).click();
    const dialog = page.getByRole('dialog', { name: 'OpenAPI' });
    const text = await dialog.getByRole('textbox').inputValue();
    const doc = JSON.parse(text) as { openapi: string; paths: Record<string, unknown>; servers: { url: string }[] };
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toEqual([`/${path}`]);
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A system calls it: a wrong key is refused, the key shown starts an import.
    const row = {
      dealerCode: 'FR777',
      name: 'Garage Appel',
      city: 'Lyon',
      postalCode: '69003',
      email: 'appel@garage.example',
      vehicles: 5,
    };
    const send = (apiKey: string) =>
      fetch(route, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify([row]),
      });
    expect((await send('not-the-key')).status).toBe(401);
    const called = await send(key);
    expect(called.status).toBe(202);
    const { data } = (await called.json()) as { data: { importId: string } };
    expect(data.importId).toMatch(/^[0-9a-f-]{36}$/);

    // The logbook shows the import of the pipeline, which ends done.
    await page.goto('/consult/import');
    await waitForPage(page, '/consult/import');
    const logged = page.locator('.gdb-logbook-row').filter({ hasText: p.name }).first();
    await logged.waitFor({ timeout: 20_000 });
    await expect.poll(() => logged.locator('td').allTextContents(), { timeout: 30_000 }).toContain('done');

    // The Endpoints screen: found by the search, un-published after the confirmation.
    await page.goto('/manage/endpoints');
    await waitForPage(page, '/manage/endpoints');
    await page.getByLabel('Search endpoints').fill(tag);
    const listed = page.locator('.gdb-published-row').filter({ hasText: path });
    await listed.waitFor();
    await expect(listed.locator('td').allTextContents()).resolves.toEqual(
      expect.arrayContaining([path, `${p.name} (v.1 - Draft)`, route, USERS.manager.userName]),
    );
    await listed.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'UN-publish' }).click();
    await confirm(page, `Do you want to un-publish pipeline [${p.name} (v.1 - Draft)]`);
    await listed.waitFor({ state: 'detached' });
    expect((await send(key)).status).toBe(401);
  });
});

describe('a listener, as a manager publishes it', () => {
  it('publishes an AMQP listener from the wizard and watches each server consume, then un-publishes it', async () => {
    t = await spec.open();
    const page = t.page;
    await signIn(page, USERS.manager);
    const tag = Date.now().toString(36);
    const p = await pipelineFedBy(page, 'listener', `Dealers listener ${tag}`);
    const panel = await openStep2(page, p);

    // The rt-listener-info form: RabbitMQ, its URL and a queue of this test's own.
    await pickOption(page, 'Broker', 'amqp');
    await panel.getByLabel('Connection URL', { exact: true }).fill(AMQP_URL);
    await panel.getByLabel('Queue, topic or subject', { exact: true }).fill(`e2e-dealers-${tag}`);
    await panel.getByLabel('User name', { exact: true }).fill('guest');
    await panel.getByLabel('Password', { exact: true }).fill('guest');
    await panel.getByRole('button', { name: 'Publish', exact: true }).click();
    await toast(page, 'Pipeline is successfully published');

    // Each server instance reports its consumer; Refresh reads the state again until it is connected.
    const servers = panel.getByRole('region', { name: 'Servers of dealers' });
    await expect
      .poll(
        async () => {
          await panel.getByRole('button', { name: 'Refresh', exact: true }).click();
          return servers.locator('tbody td').allTextContents();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toContain('connected');

    await page.goto('/manage/listeners');
    await waitForPage(page, '/manage/listeners');
    await page.getByLabel('Search listeners').fill(tag);
    const listed = page.locator('.gdb-published-row').filter({ hasText: p.name });
    await listed.waitFor();
    await listed
      .getByRole('region', { name: `Servers of ${p.name} (v.1 - Draft)` })
      .getByText('connected', { exact: true })
      .waitFor();
    await listed.getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'UN-publish' }).click();
    await confirm(page, `Do you want to un-publish pipeline [${p.name} (v.1 - Draft)]`);
    await listed.waitFor({ state: 'detached' });
  });
});
