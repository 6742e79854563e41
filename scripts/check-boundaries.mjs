// Checks the import boundaries of .dependency-cruiser.cjs (docs/architecture.md, "Boundaries") in
// two passes: every rule but the folder-cycle rule over all code, tests included; then the
// folder-cycle rule over production code only, since a test may well import from a folder above it.
// Usage: node scripts/check-boundaries.mjs [base folder, default the repository]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const root = path.resolve(import.meta.dirname, '..');
const CONFIG = path.join(root, '.dependency-cruiser.cjs');
const FOLDER_CYCLE = 'no-folder-cycle';
const TEST_RULE = 'production-not-to-tests';
const ALL_CODE = ['packages', 'e2e', 'bench', 'scripts'];
const PRODUCTION = ['packages'];

/** Runs one pass of the rule set over those of `roots` that exist, with the rules `keep` accepts. */
async function pass(options, roots, keep, moreExcluded) {
  const ruleSet = { ...options.ruleSet, forbidden: options.ruleSet.forbidden.filter(keep) };
  const exclude = moreExcluded ? { path: [options.exclude.path, moreExcluded].flat() } : options.exclude;
  const present = roots.filter((r) => fs.existsSync(path.join(options.baseDir, r)));
  const result = await cruise(present, { ...options, ruleSet, exclude, validate: true, outputType: 'json' });
  return JSON.parse(result.output).summary.violations;
}

/**
 * The violations of the rule set in the code under `baseDir` (the repository by default): each
 * `{ rule, from, to, cycle? }`, paths relative to `baseDir`.
 */
export async function checkBoundaries(baseDir = root) {
  const options = { ...(await extractDepcruiseOptions(CONFIG)), baseDir };
  const testPattern = options.ruleSet.forbidden.find((r) => r.name === TEST_RULE).to.path;
  const files = await pass(options, ALL_CODE, (r) => r.name !== FOLDER_CYCLE);
  const folders = await pass(options, PRODUCTION, (r) => r.name === FOLDER_CYCLE, testPattern);
  return [...files, ...folders].map((v) => ({
    rule: v.rule.name,
    from: v.from,
    to: v.to,
    ...(v.cycle ? { cycle: v.cycle.map((step) => step.name ?? step) } : {}),
  }));
}

/** One line per violation, a cycle as its steps. */
export function describe(violation) {
  const steps = violation.cycle ? [violation.from, ...violation.cycle] : [violation.from, violation.to];
  return `${violation.rule}: ${steps.join(' → ')}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const baseDir = path.resolve(process.argv[2] ?? root);
  const violations = await checkBoundaries(baseDir);
  for (const v of violations) console.error(`  ${describe(v)}`);
  if (violations.length > 0) {
    console.error(
      `\nBoundaries: ${violations.length} imports break the rules of .dependency-cruiser.cjs (docs/architecture.md).`,
    );
    process.exit(1);
  }
  console.log('Boundaries: no import breaks the rules of .dependency-cruiser.cjs.');
}
