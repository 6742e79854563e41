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

/**
 * The critical and serious violations of the page as it is now. axe is given to the page through
 * the browser's own evaluation, which the page's content security policy does not govern.
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(axe.source);
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

/** How many level-one headings the page has. */
export const levelOneHeadings = (page: Page): Promise<number> => page.locator('h1').count();
