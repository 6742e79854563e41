// The code editor (CodeMirror) as a person uses it: its text is replaced by selecting all and
// typing, not by Playwright's fill, whose editing command makes Chromium write a style attribute
// into the editor's line (a CSP report the app never causes).
import type { Locator, Page } from 'playwright-core';

/** The editable content of the code editor labelled `label` within `scope`. */
export const codeEditor = (scope: Page | Locator, label = 'Code'): Locator =>
  scope.locator(`.cm-content[aria-label="${label}"]`).first();

/** Replaces the code of `editor` with `code`, entered as text is (no auto-closed brackets or indents added). */
export async function replaceCode(page: Page, editor: Locator, code: string): Promise<void> {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
}

/** The code the editor shows now. */
export async function codeOf(editor: Locator): Promise<string> {
  return editor.evaluate((el) => [...el.querySelectorAll('.cm-line')].map((line) => line.textContent ?? '').join('\n'));
}
