// axe-core run inside the page: the rules of WCAG 2.2 A and AA (and best practices), and the
// violations a browser test refuses: those axe rates critical or serious.
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  /** Where: the first selectors of the nodes that fail. */
  targets: string[];
}

/** The audit each page has under way: axe runs one audit at a time in a page. */
const running = new WeakMap<Page, Promise<unknown>>();

/**
 * The critical and serious violations of the page as it is now. axe is given to the page through
 * the browser's own evaluation, which the page's content security policy does not govern.
 */
async function runAxe(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => Reflect.has(window, 'axe')))) await page.evaluate(axe.source);
  await settled(page);
  const found = await page.evaluate(async () => {
    const run = Reflect.get(window, 'axe') as typeof axe;
    const result = await run.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
  return found.filter((v) => v.impact === 'critical' || v.impact === 'serious');
}

/** How long an audit waits at most for the page's transitions and animations to end. */
const ANIMATIONS_MS = 1500;

/**
 * Waits until no transition or animation of the page is running (a colour half-way between a
 * disabled and an enabled button is no colour the page shows for long), for at most ANIMATIONS_MS.
 */
async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          // A spinner turns for as long as it is shown: only animations that end are waited for.
          .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          .every((a) => a.playState !== 'running'),
      undefined,
      {
        timeout: ANIMATIONS_MS,
        polling: 50,
      },
    )
    .catch(() => undefined);
}

/**
 * The critical and serious violations of the page as it is now, after any audit of the page
 * already under way (a test's own and the one after a navigation or a dialog may meet).
 */
export function seriousViolations(page: Page): Promise<Violation[]> {
  const next = (running.get(page) ?? Promise.resolve()).catch(() => undefined).then(() => runAxe(page));
  running.set(page, next);
  return next;
}

/** How many level-one headings the page has. */
export const levelOneHeadings = (page: Page): Promise<number> => page.locator('h1').count();

/** How long the page stays still after a navigation or a dialog opening or closing before it is audited. */
const SETTLE_MS = 400;

/**
 * Audits a page after each of its navigations and each dialog it opens or closes, so that a screen
 * a test reaches is audited by being tested. `soon` schedules an audit once the page is still;
 * `done` waits for the one under way; the violations found are added to `found`, one line each.
 */
export function auditor(page: Page, found: string[]) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const audit = async (why: string) => {
    try {
      const where = new URL(page.url()).pathname;
      for (const v of await seriousViolations(page))
        found.push(`${why} ${where}: ${v.id} (${v.impact}) ${v.help} at ${v.targets.join(', ')}`);
    } catch {
      // The page went on (or closed) during the audit: the next state is audited in its turn.
    }
  };
  return {
    soon(why: string): void {
      clearTimeout(timer);
      timer = setTimeout(() => {
        running = running.then(() => audit(why));
      }, SETTLE_MS);
    },
    async done(): Promise<void> {
      clearTimeout(timer);
      await running;
    },
  };
}
