// Checks the import boundaries of .dependency-cruiser.cjs (docs/architecture.md, "Layers and
// boundaries") in two passes: every rule but the folder-cycle rule over all code, tests included;
// then the folder-cycle rule over production code only, since a test may well import from a folder
// above it. In the repository it also names each known exception that no import needs any more.
// Usage: node scripts/check-boundaries.mjs [base folder, default the repository]
import fs from 'node:fs';
import { createRequire } from 'node:module';
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
const BEFORE = '-before-exceptions';

/** Runs one pass of the rule set over those of `roots` that exist, with the rules `keep` accepts. */
async function pass(options, roots, keep, moreExcluded) {
  const ruleSet = { ...options.ruleSet, forbidden: options.ruleSet.forbidden.filter(keep) };
  const exclude = moreExcluded ? { path: [options.exclude.path, moreExcluded].flat() } : options.exclude;
  const present = roots.filter((r) => fs.existsSync(path.join(options.baseDir, r)));
  const result = await cruise(present, { ...options, ruleSet, exclude, validate: true, outputType: 'json' });
  return JSON.parse(result.output).summary.violations;
}

/** A violation as the checker reports it: `{ rule, from, to, cycle? }`. */
function violationOf(v) {
  return {
    rule: v.rule.name,
    from: v.from,
    to: v.to,
    ...(v.cycle ? { cycle: v.cycle.map((step) => step.name ?? step) } : {}),
  };
}

/** The known exceptions that let through no import the rule would refuse. */
export function staleExceptions(exceptions, violationsBeforeExceptions) {
  const needed = (e) =>
    violationsBeforeExceptions.some((v) => v.rule === e.rule && v.from.startsWith(e.from) && v.to.startsWith(e.to));
  return exceptions.filter((e) => !needed(e));
}

/**
 * The violations of the rule set in the code under `baseDir` (the repository by default), paths
 * relative to `baseDir`, and the known exceptions of the configuration that nothing there needs.
 */
export async function checkBoundaries(baseDir = root) {
  const config = createRequire(import.meta.url)(CONFIG);
  const excepted = new Set(config.knownExceptions.map((e) => e.rule));
  const before = config.rulesBeforeExceptions.filter((r) => excepted.has(r.name)).map((r) => ({ ...r, name: r.name + BEFORE }));
  const loaded = await extractDepcruiseOptions(CONFIG);
  const ruleSet = { ...loaded.ruleSet, forbidden: [...loaded.ruleSet.forbidden, ...before] };
  const options = { ...loaded, ruleSet, baseDir };
  const testPattern = ruleSet.forbidden.find((r) => r.name === TEST_RULE).to.path;
  const isFolderRule = (r) => r.name.startsWith(FOLDER_CYCLE);
  const files = await pass(options, ALL_CODE, (r) => !isFolderRule(r));
  const folders = await pass(options, PRODUCTION, isFolderRule, testPattern);
  const all = [...files, ...folders].map(violationOf);
  const beforeExceptions = all
    .filter((v) => v.rule.endsWith(BEFORE))
    .map((v) => ({ ...v, rule: v.rule.slice(0, -BEFORE.length) }));
  return {
    violations: all.filter((v) => !v.rule.endsWith(BEFORE)),
    stale: staleExceptions(config.knownExceptions, beforeExceptions),
    known: config.knownExceptions.length,
  };
}

/** One line per violation, a cycle as its steps. */
export function describe(violation) {
  const steps = violation.cycle ? [violation.from, ...violation.cycle] : [violation.from, violation.to];
  return `${violation.rule}: ${steps.join(' → ')}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const baseDir = path.resolve(process.argv[2] ?? root);
  const { violations, stale, known } = await checkBoundaries(baseDir);
  const unneeded = baseDir === root ? stale : [];
  for (const v of violations) console.error(`  ${describe(v)}`);
  for (const e of unneeded) console.warn(`  known exception no longer needed, to remove: ${e.rule}: ${e.from} → ${e.to}`);
  if (violations.length > 0) {
    console.error(
      `\nBoundaries: ${violations.length} imports break the rules of .dependency-cruiser.cjs (docs/architecture.md).`,
    );
  }
  if (violations.length > 0) process.exit(1);
  const pending = baseDir === root ? `; ${known} known exception${known === 1 ? '' : 's'} pending` : '';
  console.log(`Boundaries: no import breaks the rules of .dependency-cruiser.cjs${pending}.`);
}
