// Runs every test: unit and integration (vitest), then the browser tests against a built app.
// With DATABASE_URL set, the server tests run on that PostgreSQL server instead of PGlite.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const run = (cmd, args, extra = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...extra });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
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

run('npx', ['vitest', 'run']);
run('npm', ['run', 'build', '--silent']);
run('npm', ['run', 'test:e2e', '--silent']);
