// Runs every static check, two at a time (each keeps about one core busy), longest first; fails
// when any fails. `node scripts/check.mjs types` runs the type checks alone (`npm run typecheck`);
// the others one by one: the package's check:* scripts.
import { seconds, together } from './lanes.mjs';

const tsc = (project) => ({ name: `types (${project})`, steps: [['npx', ['tsc', '-p', project, '--noEmit']]] });

const checks = [
  { name: 'API description (check:api)', steps: [['node', ['scripts/check-api.mjs']]] },
  tsc('bench'),
  tsc('packages/web'),
  tsc('e2e'),
  tsc('packages/server'),
  tsc('bench/tsconfig.pages.json'),
  { name: 'boundaries (check:boundaries)', steps: [['node', ['scripts/check-boundaries.mjs']]] },
  { name: 'unused files, exports and dependencies (check:unused)', steps: [['npx', ['knip', '--no-progress']]] },
  tsc('packages/shared'),
  { name: 'format and lint (Biome)', steps: [['npx', ['biome', 'check', '.']]] },
  { name: 'references (check:references)', steps: [['node', ['scripts/check-references.mjs']]] },
  { name: 'required access checks (check:access)', steps: [['node', ['scripts/check-access.mjs']]] },
];

const only = process.argv[2];
if (only && only !== 'types') {
  console.error(`check.mjs: unknown selection ${only} (types, or nothing for every check)`);
  process.exit(1);
}
const started = Date.now();
await together(only ? checks.filter((c) => c.name.startsWith('types ')) : checks);
console.log(`--- every ${only ? 'type ' : ''}check passed in ${seconds(started)}`);
