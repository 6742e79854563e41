// The import wizard as an uploader goes through it: choosing a pipeline through its brand, locale,
// product line and datakind, the steps, a data source's card and the log lines shown.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl, waitForPage } from './browser.ts';

const API = '/gdb-importer/v1';

/** A GET of the API with the page's session. */
async function apiAs<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('gdb-token'));
  const res = await fetch(`${baseUrl()}${API}${path}`, { headers: { 'x-token': token ?? '' } });
  return ((await res.json()) as { data: T }).data;
}

/** Picks `option` in the select labelled `label`. */
async function pickOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).click();
  await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
}

export const nextStep = (page: Page): Locator => page.getByRole('button', { name: 'Next step' });
/** The wizard's step, counted from 0. */
export const wizardStep = (page: Page, step: number): Locator => page.locator(`.gdb-wizard-step[data-step="${step}"]`);
export const logLines = (scope: Locator): Locator => scope.locator('.gdb-log-message');
/** The card of the data source `name` in a step. */
export const sourceCard = (page: Page, step: number, name: string): Locator =>
  wizardStep(page, step).locator('.ant-card').filter({ hasText: name });

interface PipelineProps {
  name: string;
  brand: { name: string };
  locale: { language: string; country: string };
  productLine: { name: string };
  datakind: { name: string };
}

/** Opens the wizard, chooses the pipeline through brand, locale, product line and datakind, and goes to step 2. */
export async function choosePipeline(page: Page, name: string): Promise<void> {
  await page.goto('/import/upload');
  await waitForPage(page, '/import/upload');
  const mine = await apiAs<{ pipelines: PipelineProps[] }>(page, '/users/pipelines');
  const p = mine.pipelines.find((x) => x.name === name);
  if (!p) throw new Error(`${name} is not among the pipelines the user may use`);
  await pickOption(page, 'Brand', p.brand.name);
  await pickOption(page, 'Locale', `${p.locale.language}-${p.locale.country}`);
  await pickOption(page, 'Product line', p.productLine.name);
  await pickOption(page, 'Datakind', p.datakind.name);
  await page.getByLabel('Pipelines').getByText(name, { exact: true }).click();
  await expect.poll(() => nextStep(page).isEnabled()).toBe(true);
  await nextStep(page).click();
}
