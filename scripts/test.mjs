// Runs every test: unit and integration (vitest), then the browser tests against a built app.
// With DATABASE_URL set, the server tests run on that PostgreSQL server instead of PGlite.
// TEST_SCOPE=database runs only the tests that touch the database (the server's integration tests,
// named *.int.test.ts, and the browser tests) and reuses a built web app: CI's second run, on
// PostgreSQL, after a full one on PGlite.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const scope = process.env.TEST_SCOPE ?? 'all';
if (scope !== 'all' && scope !== 'database') {
  console.error(`TEST_SCOPE must be all or database, not ${scope}.`);
  process.exit(1);
}
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

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

/** Runs one job's commands one after the other; answers its exit code and output. */
function runJob({ name, steps }, streamed) {
  const started = Date.now();
  const output = [];
  const next = async (i) => {
    if (i === steps.length) return 0;
    const [cmd, args] = steps[i];
    const child = spawn(cmd, args, { cwd: root, stdio: streamed ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    return code === 0 ? next(i + 1) : (code ?? 1);
  };
  return next(0).then((code) => ({ name, code, output, took: seconds(started) }));
}

/**
 * Runs jobs two at a time (Vitest gives a run one worker on two cores, so two runs side by side
 * keep both busy), the next one starting as soon as one ends; the first job's output shows as it
 * comes and the others' once they end (their lines would otherwise interleave). Fails when any fails.
 */
async function together(jobs, slots = 2) {
  const results = [];
  let taken = 0;
  const lane = async () => {
    while (taken < jobs.length) {
      const i = taken++;
      results[i] = await runJob(jobs[i], i === 0);
    }
  };
  await Promise.all(Array.from({ length: Math.min(slots, jobs.length) }, lane));
  for (const r of results) {
    if (r.output.length > 0) process.stdout.write(Buffer.concat(r.output));
    console.log(`--- ${r.name}: ${r.code === 0 ? 'passed' : 'FAILED'} in ${r.took}`);
  }
  const failed = results.find((r) => r.code !== 0);
  if (failed) process.exit(failed.code ?? 1);
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
