// Builds the web app when its build is missing or older than its sources, then starts the server;
// `node scripts/start.mjs worker` starts a worker process (import jobs only) instead, without the build.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'packages/web/dist/index.html');

function newest(dir) {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return latest;
}

function buildWebWhenOld() {
  const sources = Math.max(newest(path.join(root, 'packages/web')), newest(path.join(root, 'packages/shared/src')));
  if (fs.existsSync(dist) && fs.statSync(dist).mtimeMs >= sources) return;
  console.log('Building the web app…');
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const worker = process.argv[2] === 'worker';
if (!worker) buildWebWhenOld();
const entry = worker ? 'packages/server/src/worker.ts' : 'packages/server/src/main.ts';
const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', entry], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
