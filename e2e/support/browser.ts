// Debian's Chromium driven by playwright-core, one fresh profile per launch and one context per test.
import fs from 'node:fs';
import path from 'node:path';
import { pageTitle } from '@gdb/shared/routes/web-routes';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import { auditor } from './axe.ts';
import { E2E_PASSWORD, type E2eUser } from './users.ts';

export const baseUrl = (): string => inject('baseUrl');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts Chromium (playwright gives each launch a fresh user-data dir). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ARGS,
  });
}

/** What went wrong in the page: console errors, uncaught errors and CSP violations. */
interface PageProblems {
  console: string[];
  errors: string[];
  csp: string[];
  /** axe-core's critical and serious violations, audited after each navigation and dialog opened or closed. */
  axe: string[];
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  problems: PageProblems;
  audits: ReturnType<typeof auditor>;
}

/** A new browser context (empty storage) with one page that records its problems; `base` names another server. */
export async function newPage(browser: Browser, base: string = baseUrl()): Promise<TestPage> {
  // Reduced motion turns antd's animations off, so clicks never land on a moving menu.
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  const problems: PageProblems = { console: [], errors: [], csp: [], axe: [] };
  await context.exposeBinding('__reportCsp', (_source, text: string) => {
    problems.csp.push(text);
  });
  let audits: ReturnType<typeof auditor> | undefined;
  await context.exposeBinding('__dialogsChanged', () => audits?.soon('dialog'));
  // A dialog opening or closing is a new state of the page: it is audited once it is still.
  await context.addInitScript(() => {
    let open = 0;
    new MutationObserver(() => {
      const now = document.querySelectorAll('[role=dialog]:not([aria-hidden=true])').length;
      if (now === open) return;
      open = now;
      const tell = Reflect.get(window, '__dialogsChanged');
      if (typeof tell === 'function') tell();
    }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-hidden', 'style'] });
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = Reflect.get(window, '__reportCsp');
      const at = e.target instanceof Element ? ` at <${e.target.tagName.toLowerCase()} class="${e.target.className}">` : '';
      if (typeof report === 'function') report(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})${at}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') problems.console.push(m.text());
  });
  page.on('pageerror', (e) => problems.errors.push(e.message));
  audits = auditor(page, problems.axe);
  const audit = audits;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) audit.soon('navigation');
  });
  return { context, page, problems, audits: audit };
}

/**
 * Closes a test's context; when the test failed, first saves a screenshot and the page's
 * problems under e2e/.artifacts to show what the browser saw.
 */
export async function closePage(t: TestPage | undefined, testName: string, failed: boolean): Promise<void> {
  if (!t) return;
  await t.audits.done();
  // A test that passed still fails on what axe found in the states it went through.
  const found = [...new Set(t.problems.axe)];
  if (found.length > 0) failed = true;
  if (failed) {
    const dir = path.resolve(import.meta.dirname, '../.artifacts');
    fs.mkdirSync(dir, { recursive: true });
    const base = path.join(dir, testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 80));
    await t.page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => undefined);
    fs.writeFileSync(`${base}.json`, JSON.stringify({ url: t.page.url(), ...t.problems }, null, 2));
  }
  await t.context.close();
  if (found.length > 0) throw new Error(`axe-core found critical or serious violations:\n${found.join('\n')}`);
}

/** Signs in through the sign-in page and waits until it has left /login. */
export async function signIn(page: Page, user: E2eUser, password = E2E_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByPlaceholder('firstname.lastname').fill(user.userName);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

/**
 * Waits until the browser shows the page at `path` (with its query, if any): the address is
 * that page's and the tab carries its title, which the app sets once the page has rendered.
 */
export async function waitForPage(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
  const title = pageTitle(path.split('?')[0] ?? path);
  await page.waitForFunction((expected) => document.title === expected, title);
}

/** The path and query of the page. */
export function where(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

/** The titles of the sidebar's top-level entries, once it shows. */
export async function topMenu(page: Page): Promise<string[]> {
  const items = page.getByRole('complementary', { name: 'Sidebar' }).locator('.ant-menu-root > li');
  await items.first().waitFor();
  return items.evaluateAll((lis) => lis.map((li) => li.querySelector('.ant-menu-title-content')?.textContent?.trim() ?? ''));
}

/**
 * The browser of a spec and the pages of its tests: launched before the spec's tests and closed
 * after them; the page `open` last made is closed after its test (a screenshot and its problems
 * kept when the test failed).
 */
export function specBrowser(): { open(base?: string): Promise<TestPage> } {
  let browser: Browser | undefined;
  let current: TestPage | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async ({ task }) => {
    await closePage(current, task.name, task.result?.state === 'fail');
    current = undefined;
  });
  return {
    async open(base?: string) {
      if (!browser) throw new Error('The spec browser is not launched.');
      current = await newPage(browser, base);
      return current;
    },
  };
}
