// Checks that the server's document access checks cannot be left out: no service takes its check
// (or its caller) as an optional parameter or falls back to letting everything through when a
// caller forgets it. The types make the check a required parameter; this keeps anyone from adding
// the default back. `allowEverything` is for tests, which pass it explicitly.
// Usage: node scripts/check-access.mjs
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const SERVER_SRC = path.join(root, 'packages/server/src');

/** The file that defines the check, where `allowEverything` (a super-admin's access) is built. */
const ACCESS_SERVICE = 'modules/access/access.service.ts';

const CHECKS = 'DocumentAccess|DocumentAccessHook|BadgeWriteCheck|BadgeReadFilter|CallerAccess';

/** What a forgotten check looks like, with what the rule says of it. */
const RULES = [
  { pattern: /\bopenToAll\b/g, what: 'an open-to-all fallback' },
  { pattern: new RegExp(`\\w+\\?\\s*:\\s*(?:${CHECKS})\\b`, 'g'), what: 'an optional access check' },
  // A parameter's default, not a declared constant's value.
  {
    pattern: new RegExp(`(?<!(?:const|let|var)\\s+\\w+)\\s*:\\s*(?:${CHECKS})\\s*=(?!=|>)`, 'g'),
    what: 'an access check with a default',
  },
  {
    pattern: /\b(?:access|documentAccess|badgeWriteCheck|badgeReadFilter)\s*\?\?/g,
    what: 'a fallback for a missing access check',
  },
  { pattern: /\b(?:viewer|auth|caller)\?\s*:\s*AuthContext\b/g, what: 'an optional caller (whose check would be skipped)' },
];

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** The places in `text` (a server source file at `file`, relative to packages/server/src) where a check could be left out. */
export function forgettableChecks(text, file = '') {
  const found = [];
  for (const { pattern, what } of RULES) {
    for (const m of text.matchAll(pattern)) found.push({ line: lineOf(text, m.index), what: `${what}: ${m[0]}` });
  }
  if (file !== ACCESS_SERVICE) {
    for (const m of text.matchAll(/\ballowEverything\b/g)) {
      found.push({ line: lineOf(text, m.index), what: 'allowEverything outside the tests and the access module' });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

function sourceFiles(dir) {
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = sourceFiles(SERVER_SRC).flatMap((file) =>
    forgettableChecks(fs.readFileSync(path.join(SERVER_SRC, file), 'utf8'), file.split(path.sep).join('/')).map(
      (f) => `packages/server/src/${file}:${f.line}: ${f.what}`,
    ),
  );
  if (found.length > 0) {
    console.error(`Access checks: ${found.length} place(s) where a service could run without its caller's check:`);
    for (const f of found) console.error(`  ${f}`);
    process.exit(1);
  }
  console.log('Access checks: every service takes its access check and its caller as required parameters.');
}
