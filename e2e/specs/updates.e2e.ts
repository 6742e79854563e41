// The Updates screen as a manager works: a master and its country locked from the Lock tab, then,
// after a new version of their component, both updated from the Update tab (the country listed
// once its master is updated).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.ts';
import { signIn, specBrowser, type TestPage } from '../support/browser.ts';
import { callFromPage as call } from '../support/page-api.ts';
import { USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

interface Doc {
  _id: string;
  name: string;
  version: number;
  vLocked: boolean;
}
type Pipeline = Doc & { component: string | null; masterPipeline: string | null };

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').getByText(text, { exact: true }).last().waitFor();

/** A data model, an instruction component over it, a master pipeline invoking it and a country inheriting it: all drafts. */
async function makeFamily(page: Page) {
  const model = await call<Doc>(page, '/schemas', {
    name: 'E2E updates rows',
    folder: null,
    jsonSchema: { type: 'object', properties: { code: { type: 'string' } } },
  });
  const component = await call<Doc>(page, '/components', {
    name: 'E2E updates map',
    kind: 'instruction',
    inputs: [{ name: 'rows', inputSchema: model._id }],
    outputs: [{ name: 'rows', outputSchema: model._id }],
    jsCode: 'ctx.output.rows = ctx.input.rows;',
  });
  const master = await call<Pipeline>(page, '/pipelines', {
    name: 'E2E updates master',
    isMaster: true,
    component: component._id,
    dataSources: [{ dataSubKind: 'rows', connectorType: 'manual', contentType: 'csv', dataModel: model._id }],
    dataSinks: [{ name: 'rows', format: 'CSV' }],
  });
  const country = await call<Pipeline>(page, '/pipelines', {
    name: 'E2E updates France',
    isMaster: false,
    masterPipeline: master._id,
  });
  return { model, component, master, country };
}

/** Checks the row of `name` at `version` in the open tab's list. */
const check = (page: Page, name: string, version: number) =>
  page
    .getByRole('tabpanel')
    .getByRole('checkbox', { name: `${name} v${version}`, exact: true })
    .check();

describe('the Updates screen', () => {
  it('locks a master then its country from the Lock tab, and updates both from the Update tab after a new component version', async () => {
    t = await spec.open();
    const page = t.page;
    await signIn(page, USERS.manager);
    const { component, master, country } = await makeFamily(page);
    // Locking a master locks what it depends on; the component and data model first, then the master.
    await call(page, '/components/version/lock', { id: component._id, force: true });

    await page.goto('/manage/update-lock-pipeline');
    await page.getByRole('tab', { name: 'Lock version' }).click();
    const lockList = page.getByRole('tabpanel');
    await lockList.getByText(master.name, { exact: true }).waitFor();
    // The country is not offered while its master is a draft.
    expect(await lockList.getByText(country.name, { exact: true }).count()).toBe(0);
    await check(page, master.name, 1);
    await page.getByRole('button', { name: 'Start lock' }).click();
    await toast(page, 'Version 1 locked');
    await lockList.getByText(country.name, { exact: true }).waitFor();
    await check(page, country.name, 1);
    await page.getByRole('button', { name: 'Start lock' }).click();
    await expect.poll(async () => (await call<Pipeline>(page, `/pipelines/id?id=${country._id}`)).vLocked).toBe(true);

    // A new version of the component: the master is listed for update, its country once the master is updated.
    const newer = await call<Doc>(page, '/components/version/new', { id: component._id });
    await page.getByRole('tab', { name: 'Update version' }).click();
    const updateList = page.getByRole('tabpanel');
    await updateList.getByText(master.name, { exact: true }).click();
    await page.getByRole('region', { name: 'Update report' }).getByText(component.name, { exact: true }).waitFor();
    const countries = page.getByRole('region', { name: 'Country pipelines' });
    expect(await countries.getByText(country.name, { exact: true }).count()).toBe(0);
    await check(page, master.name, 1);
    await page.getByRole('button', { name: 'Start update' }).click();
    await toast(page, `${master.name} : Version 1 updated to version 2`);
    await check(page, country.name, 1);
    await page.getByRole('button', { name: 'Start update' }).click();
    await toast(page, `${country.name} : Version 1 updated to version 2`);

    const family = await call<Doc[]>(page, `/pipelines/version?id=${country._id}`);
    const newest = family.at(-1) as Doc;
    expect(newest.version).toBe(2);
    const updated = await call<Pipeline>(page, `/pipelines/id?id=${newest._id}`);
    expect(updated.component).toBe(newer._id);
    expect(updated.masterPipeline).not.toBe(master._id);
    expect(await seriousViolations(page)).toEqual([]);
    expect(t.problems.errors).toEqual([]);
    expect(t.problems.csp).toEqual([]);
  });
});
