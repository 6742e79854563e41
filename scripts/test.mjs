// Runs every test: unit and integration (vitest), then the browser tests against a built app.
// With DATABASE_URL set, the server tests run on that PostgreSQL server instead of PGlite.
// TEST_SCOPE=database runs only the tests that touch the database (the server's integration tests,
// named *.int.test.ts, and the browser tests) and reuses a built web app: CI's second run, on
// PostgreSQL, after a full one on PGlite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seconds, together } from './lanes.mjs';

const root = path.resolve(import.meta.dirname, '..');
const scope = process.env.TEST_SCOPE ?? 'all';
if (scope !== 'all' && scope !== 'database') {
  console.error(`TEST_SCOPE must be all or database, not ${scope}.`);
  process.exit(1);
}
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';

const run = (cmd, args, extra = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...extra });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

/** Runs a stage and prints how long it took. */
function stage(name, work) {
  const started = Date.now();
  console.log(`\n--- ${name}`);
  const done = () => console.log(`--- ${name}: ${seconds(started)}`);
  const result = work();
  return result instanceof Promise ? result.then(done) : done();
}

function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (fs.existsSync(chromium)) return;
  const isRoot = process.getuid?.() === 0;
  if (isRoot && fs.existsSync('/usr/bin/apt-get') && process.env.GDB_NO_APT !== '1') {
    console.log('Installing Debian chromium for the browser tests…');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } else {
    console.error(`Chromium not found at ${chromium}: install Debian's chromium or set CHROMIUM_PATH.`);
    process.exit(1);
  }
}

ensureChromium();
const server = ['vitest', 'run', '--project', 'server'];
const unit = ['vitest', 'run', '--project', 'shared', '--project', 'tools', '--project', 'web'];
const browser = ['run', 'test:e2e', '--silent'];
const built = () => fs.existsSync(path.join(root, 'packages/web/dist/index.html'));
const build = () => stage('build', () => run('npm', ['run', 'build', '--silent']));

if (scope === 'database') {
  // The integration tests and the browser tests each keep about one core busy, and each works in
  // databases of its own, so they run side by side.
  if (!built()) build();
  await stage(`integration and browser tests (${engine})`, () =>
    together([
      { name: `browser tests (${engine})`, steps: [['npm', browser]] },
      { name: `server integration tests (${engine})`, steps: [['npx', [...server, '.int.test.ts']]] },
    ]),
  );
} else if (os.availableParallelism() === 1) {
  stage('unit and integration tests', () => run('npx', ['vitest', 'run']));
  build();
  stage(`browser tests (${engine})`, () => run('npm', browser));
} else {
  // The browser tests (after the build) start as soon as the server or the unit tests are done.
  await stage('unit, integration and browser tests', () =>
    together([
      { name: `server tests (${engine})`, steps: [['npx', server]] },
      { name: 'shared and web tests', steps: [['npx', unit]] },
      {
        name: `build and browser tests (${engine})`,
        steps: [
          ['npm', ['run', 'build', '--silent']],
          ['npm', browser],
        ],
      },
    ]),
  );
}
