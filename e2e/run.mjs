// Runs the browser tests in E2E_SHARDS groups of spec files side by side (2 on a machine of two
// cores or more, 1 otherwise), each group with its own server, database and browser: the tests
// spend most of their time waiting for the app, so two groups take little more than half the time
// of one. The web app is built first when it is missing, once for all groups. Arguments are given
// to vitest (a spec's path runs that spec alone, in one group).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { together } from '../scripts/lanes.mjs';

const here = import.meta.dirname;
const root = path.resolve(here, '..');
const args = process.argv.slice(2);
const shards = args.length > 0 ? 1 : Number(process.env.E2E_SHARDS ?? (os.availableParallelism() > 1 ? 2 : 1));
if (!Number.isInteger(shards) || shards < 1) {
  console.error(`E2E_SHARDS must be a whole number of 1 or more, not ${process.env.E2E_SHARDS}.`);
  process.exit(1);
}

if (!process.env.WEB_DIST && !fs.existsSync(path.join(root, 'packages/web/dist/index.html'))) {
  // A production build, as the global setup would make it: once here rather than once per group.
  const built = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const vitest = (extra) => ['npx', ['vitest', 'run', '--config', 'vitest.config.ts', ...extra]];
await together(
  Array.from({ length: shards }, (_, i) => ({
    name: shards > 1 ? `browser tests, group ${i + 1} of ${shards}` : 'browser tests',
    cwd: here,
    steps: [vitest(shards > 1 ? [`--shard=${i + 1}/${shards}`, ...args] : args)],
  })),
  shards,
);
