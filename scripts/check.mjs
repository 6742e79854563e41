// Runs every static check, two at a time (each keeps about one core busy), longest first; fails
// when any fails. The same checks one by one: the package's check:* and typecheck scripts.
import { seconds, together } from './lanes.mjs';

const tsc = (project) => ({ name: `types (${project})`, steps: [['npx', ['tsc', '-p', project, '--noEmit']]] });

const started = Date.now();
await together([
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
]);
console.log(`--- every check passed in ${seconds(started)}`);
