// Checks that the repository's references resolve inside it: comments and docs cite
// docs/product.md or docs/decisions.md by section, never the specification or design notes that
// are kept outside the repository (docs/architecture.md, "References").
// Usage: node scripts/check-references.mjs
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|jsonc|css|html|sh)$/;

/** Citations of documents outside the repository: "spec 001", "DESIGN §4", "000 §2.6", "DESIGN.md". */
const OUTSIDE_CITATION = /\bspec 00\d\b|\bDESIGN(\.md| ?§)|\b00[0-2] ?§/;

/** The lines of `text` that cite a document outside the repository, with their numbers. */
export function outsideCitations(text) {
  return text
    .split('\n')
    .map((line, i) => ({ line: i + 1, text: line.trim() }))
    .filter((l) => OUTSIDE_CITATION.test(l.text));
}

function trackedFiles() {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  return out.split('\0').filter((f) => TEXT.test(f) && !f.startsWith('packages/server/test/corpus/'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const self = path.relative(root, import.meta.filename);
  const found = trackedFiles()
    .filter((f) => f !== self && f !== 'scripts/check-references.test.ts' && fs.existsSync(path.join(root, f)))
    .flatMap((f) => outsideCitations(fs.readFileSync(path.join(root, f), 'utf8')).map((l) => `${f}:${l.line}: ${l.text}`));
  if (found.length > 0) {
    console.error(
      `References: ${found.length} line(s) cite documents kept outside the repository; cite docs/product.md or docs/decisions.md instead:`,
    );
    for (const f of found) console.error(`  ${f}`);
    process.exit(1);
  }
  console.log('References: every citation resolves inside the repository.');
}
