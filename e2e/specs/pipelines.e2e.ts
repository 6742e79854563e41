// Pipelines as a manager makes them on the Pipelines screen: a master pipeline built through its
// form (the component chosen in the explorer's cascader, a data source typed by a data model, a
// sink, the reference values), a country pipeline that inherits it by choosing it as its master,
// and both locked together from the master's version bar.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { levelOneHeadings, seriousViolations } from '../support/axe.ts';
import { signIn, specBrowser, type TestPage } from '../support/browser.ts';
import { callFromPage as call } from '../support/page-api.ts';
import { USERS } from '../support/users.ts';

const spec = specBrowser();
let t: TestPage | undefined;

interface Pipeline {
  _id: string;
  name: string;
  isMaster: boolean;
  vLocked: boolean;
  masterPipeline: string | null;
  component: string | null;
  dataSources: { dataSubKind: string; dataModel: string | null }[];
  dataSinks: { name: string }[];
  brand: { name: string } | null;
  locale: { _id: string; name: string; language: string; country: string } | null;
  productLine: { name: string } | null;
  datakind: { name: string } | null;
}

/** Picks `option` in the select labelled `label` (its options are titled by their text). */
async function pickOption(page: Page, label: string, option: string, within: Page | Locator = page): Promise<void> {
  await within.getByLabel(label, { exact: true }).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

const toast = (page: Page, text: string) => page.locator('.ant-message-notice').getByText(text, { exact: true }).last().waitFor();

async function newPipeline(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'New pipeline' }).click();
  const dialog = page.getByRole('dialog', { name: 'New pipeline' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: `MASTER Pipeline [${name}]` }).waitFor();
}

describe('the Pipelines screen', () => {
  it('builds a master pipeline, a country pipeline that inherits it, and locks both from the version bar', async () => {
    t = await spec.open();
    const page = t.page;
    await signIn(page, USERS.manager);
    // A data model and a component of this test's own (the lock with force locks them), and the
    // demo master's reference values.
    const demo = (await call<Pipeline[]>(page, '/pipelines/masters'))[0] as Pipeline;
    const model = await call<{ _id: string; name: string; version: number; vLocked: boolean }>(page, '/schemas', {
      name: 'E2E dealer rows',
      folder: null,
      jsonSchema: { type: 'object', properties: { dealerCode: { type: 'string' } } },
    });
    const component = await call<{ _id: string; name: string }>(page, '/components', {
      name: 'E2E map dealers',
      kind: 'instruction',
      inputs: [{ name: 'dealers', inputSchema: model._id }],
      outputs: [{ name: 'dealers', outputSchema: model._id }],
      jsCode: 'ctx.output.dealers = ctx.input.dealers;',
    });
    const source = { dataSubKind: 'dealers', dataModel: model._id };

    await page.goto('/manage/pipeline');
    await newPipeline(page, 'E2E master');
    await page.getByLabel('Choose a component').fill(component.name);
    await page
      .locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item')
      .filter({ hasText: component.name })
      .first()
      .click();
    await page.getByRole('button', { name: 'Add Data sources' }).click();
    const added = page.getByRole('group', { name: 'Data sources 1' });
    await added.getByLabel('Data sub kind').fill(source.dataSubKind);
    await pickOption(page, 'Schema', `${model.name} (v.${model.version} - ${model.vLocked ? 'Prod' : 'Draft'})`, added);
    await page.getByRole('button', { name: 'Add Data sinks' }).click();
    await page.getByLabel('Output port').fill('dealers');
    await pickOption(page, 'Brand', demo.brand?.name ?? '');
    await pickOption(page, 'Locale', `${demo.locale?.name} (${demo.locale?.language}_${demo.locale?.country})`);
    await pickOption(page, 'Product line', demo.productLine?.name ?? '');
    await pickOption(page, 'Datakind', demo.datakind?.name ?? '');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Pipeline saved');
    const masterId = new URL(page.url()).searchParams.get('id') ?? '';

    await newPipeline(page, 'E2E France');
    await page.locator('[data-field-path="isMaster"]').getByLabel('False').check();
    await pickOption(page, 'Pipeline', 'E2E master (v.1 - Draft)');
    await expect
      .poll(() => page.locator('.gdb-document-picker-name .ant-select-content').first().textContent())
      .toBe(component.name);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Pipeline saved');
    await page.getByRole('heading', { name: 'Country Pipeline [E2E France]' }).waitFor();
    const countryId = new URL(page.url()).searchParams.get('id') ?? '';

    await page.goto(`/manage/pipeline?id=${masterId}`);
    await page.getByRole('heading', { name: 'MASTER Pipeline [E2E master]' }).waitFor();
    await page.getByRole('group', { name: 'Version' }).getByRole('button', { name: 'Lock' }).click();
    const question = page.getByRole('dialog').filter({ hasText: 'Lock version 1 ?' });
    await question.getByLabel('Also lock the drafts it depends on').check();
    await question.getByLabel('Also lock its country pipelines').check();
    await question.getByRole('button', { name: 'Yes' }).click();
    await toast(page, 'Version 1 locked');

    const master = await call<Pipeline>(page, `/pipelines/id?id=${masterId}`);
    const country = await call<Pipeline>(page, `/pipelines/id?id=${countryId}`);
    expect(master).toMatchObject({ isMaster: true, vLocked: true, component: component._id });
    expect(master.dataSources).toMatchObject([{ dataSubKind: source.dataSubKind, dataModel: source.dataModel }]);
    expect(country).toMatchObject({
      isMaster: false,
      vLocked: true,
      masterPipeline: masterId,
      component: component._id,
      dataSources: master.dataSources,
      dataSinks: master.dataSinks,
      brand: master.brand,
      locale: master.locale,
    });
    // The screen with its form, pickers and version bar has no serious accessibility violation.
    expect(await seriousViolations(page)).toEqual([]);
    expect(await levelOneHeadings(page)).toBe(1);
    expect(t.problems.errors).toEqual([]);
    expect(t.problems.csp).toEqual([]);
  });
});
