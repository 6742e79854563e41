// Bundles the server into packages/server/dist, for `npm start` to run as plain JavaScript:
// - main.js, worker.js, migrate.js: the server, the job worker and the migration command, each one
//   ES module with the server's and @gdb/shared's code in it; the installed packages stay imports;
// - parse-worker.cjs: the parse worker's thread, one CommonJS script with its parsers in it, read by
//   the server (platform/worker-code.ts) instead of bundling it at start;
// - model-compile-worker.cjs: the thread that compiles a data model's check, likewise;
// - sandbox/prelude.js: the isolate's runtime library, its modules in one script with no Node API,
//   read by the runtime (runtime/prelude-code.ts, which bundles the same when run from source).
// `npm run build` runs it after the web app's build; `npm start` runs it when the sources changed.
// `node scripts/build-server.mjs --out <folder>` builds into another folder (inside the repository,
// where the installed packages resolve), as the build's own test does.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'packages/server');
const outAt = process.argv.indexOf('--out');
const out = outAt > 0 && process.argv[outAt + 1] ? path.resolve(process.argv[outAt + 1]) : path.join(server, 'dist');
const target = 'node20.19';

/** Installed packages stay imports of the bundle; the workspace's own (TypeScript sources) go in it. */
const installedPackagesOutside = {
  name: 'installed-packages-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@gdb/') ? undefined : { external: true }));
  },
};

const common = { bundle: true, platform: 'node', target, logLevel: 'warning', legalComments: 'none', keepNames: true };

fs.rmSync(out, { recursive: true, force: true });
await Promise.all([
  build({
    ...common,
    entryPoints: {
      main: path.join(server, 'src/main.ts'),
      worker: path.join(server, 'src/worker.ts'),
      migrate: path.join(server, 'src/platform/db/migrate-cli.ts'),
    },
    outdir: out,
    format: 'esm',
    plugins: [installedPackagesOutside],
  }),
  build({
    ...common,
    entryPoints: [path.join(server, 'src/modules/uploads/parsing/parse.worker.ts')],
    outfile: path.join(out, 'parse-worker.cjs'),
    format: 'cjs',
  }),
  // The options of runtime/prelude-code.ts's PRELUDE_BUILD.
  build({
    entryPoints: [path.join(server, 'src/runtime/sandbox/prelude.ts')],
    outfile: path.join(out, 'sandbox/prelude.js'),
    bundle: true,
    format: 'iife',
    globalName: '__gdbPrelude',
    platform: 'neutral',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
  }),
  build({
    ...common,
    entryPoints: [path.join(server, 'src/runtime/model-compile.worker.ts')],
    outfile: path.join(out, 'model-compile-worker.cjs'),
    format: 'cjs',
  }),
]);
