// Checks that every antd dialog and drawer of the web app opens under the strict CSP: a Modal (or a
// modal.confirm/info/success/warning/error) takes CSP_SAFE_MODAL and a Drawer CSP_SAFE_DRAWER
// (packages/web/src/ui/tags/confirmation.ts), since antd's scroll lock injects a style element
// without the nonce, which the browser refuses.
// Usage: node scripts/check-dialogs.mjs
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const WEB_SRC = path.join(root, 'packages/web/src');

/** What each kind of opening must carry. */
const NEEDS = { Modal: 'CSP_SAFE_MODAL', Drawer: 'CSP_SAFE_DRAWER', call: 'CSP_SAFE_MODAL' };

/** The text from `from` to the first `close` outside braces, brackets and parentheses opened after it. */
function until(text, from, close) {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (depth === 0 && c === close) return text.slice(from, i + 1);
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
  }
  return text.slice(from);
}

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** The dialogs and drawers in `text` that open without their CSP-safe props, with their lines. */
export function unsafeDialogs(text) {
  const found = [];
  for (const m of text.matchAll(/<(Modal|Drawer)(?=[\s>/])/g)) {
    const tag = until(text, m.index + m[0].length, '>');
    const needed = NEEDS[m[1]];
    if (!tag.includes(needed)) found.push({ line: lineOf(text, m.index), what: `<${m[1]}> without ${needed}` });
  }
  for (const m of text.matchAll(/\b(?:modal|Modal)\.(confirm|info|success|warning|error)\(/g)) {
    const args = until(text, m.index + m[0].length, ')');
    if (!args.includes(NEEDS.call)) found.push({ line: lineOf(text, m.index), what: `${m[0]}…) without ${NEEDS.call}` });
  }
  return found;
}

function sourceFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.(ts|tsx)$/.test(f))
    .map((f) => path.join(dir, f));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = sourceFiles(WEB_SRC).flatMap((file) =>
    unsafeDialogs(fs.readFileSync(file, 'utf8')).map((d) => `${path.relative(root, file)}:${d.line}: ${d.what}`),
  );
  if (found.length > 0) {
    console.error(
      `Dialogs: ${found.length} open(s) without their CSP-safe props (antd's scroll lock would inject a style the CSP refuses):`,
    );
    for (const f of found) console.error(`  ${f}`);
    process.exit(1);
  }
  console.log('Dialogs: every dialog and drawer opens under the strict CSP.');
}
