// Builds what is missing or older than its sources (the web app, the server: `npm run build` builds
// both), then runs the compiled server (packages/server/dist/main.js); `node scripts/start.mjs
// worker` runs a worker process (import jobs only) and `node scripts/start.mjs migrate` the
// migrations, neither of which needs the web app.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const at = (...parts) => path.join(root, ...parts);

/** The newest modification time of the files under these paths (build output and installed packages aside). */
function newest(...paths) {
  let latest = 0;
  for (const full of paths) {
    const stat = fs.statSync(full, { throwIfNoEntry: false });
    if (!stat) continue;
    if (!stat.isDirectory()) {
      latest = Math.max(latest, stat.mtimeMs);
      continue;
    }
    for (const entry of fs.readdirSync(full)) {
      if (entry !== 'node_modules' && entry !== 'dist') latest = Math.max(latest, newest(path.join(full, entry)));
    }
  }
  return latest;
}

/** Whether `output` is missing or older than any of `sources`. */
function stale(output, sources) {
  const built = fs.statSync(output, { throwIfNoEntry: false });
  return !built || built.mtimeMs < newest(...sources);
}

function run(what, command, args) {
  console.log(`Building ${what}…`);
  const built = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const shared = [at('packages/shared/src'), at('package-lock.json')];
const parts = {
  web: {
    output: at('packages/web/dist/index.html'),
    sources: [at('packages/web'), ...shared],
    build: () => run('the web app', 'npm', ['run', '-w', '@gdb/web', 'build', '--silent']),
  },
  server: {
    output: at('packages/server/dist/main.js'),
    sources: [at('packages/server/src'), at('packages/server/package.json'), at('scripts/build-server.mjs'), ...shared],
    build: () => run('the server', process.execPath, ['scripts/build-server.mjs']),
  },
};

const entries = { server: 'main.js', worker: 'worker.js', migrate: 'migrate.js' };
const role = process.argv[2] ?? 'server';
if (!(role in entries)) {
  console.error(`start.mjs: unknown role ${role} (worker, migrate, or nothing for the server)`);
  process.exit(1);
}
for (const name of role === 'server' ? ['web', 'server'] : ['server']) {
  const part = parts[name];
  if (stale(part.output, part.sources)) part.build();
}
const child = spawn(process.execPath, ['--no-node-snapshot', at('packages/server/dist', entries[role])], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
