import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as Esbuild from 'esbuild';

/**
 * How the library's modules (sandbox/prelude.ts) become one script for the isolate: no Node API,
 * its exports under one name the program reads (see `preludeCode`). scripts/build-server.mjs
 * builds the same at build time, beside the server's bundle.
 */
const PRELUDE_BUILD = {
  bundle: true,
  format: 'iife',
  globalName: '__gdbPrelude',
  platform: 'neutral',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'silent',
} satisfies Esbuild.BuildOptions;

/**
 * The runtime library every program starts with, as a statement defining `__gdb` (the calls the
 * compiler writes). The built server reads the script `npm run build` bundled beside it
 * (`sandbox/prelude.js`, scripts/build-server.mjs); a server run from its sources (tests, benches)
 * bundles it once per process, as it loads.
 */
export function preludeCode(): string {
  const built = path.join(import.meta.dirname, 'sandbox', 'prelude.js');
  const script = fs.existsSync(built) ? fs.readFileSync(built, 'utf8') : bundlePrelude();
  return `const __gdb = (() => {\n${script.trimEnd()}\nreturn __gdbPrelude.gdb;\n})();`;
}

function bundlePrelude(): string {
  // Synchronous, so that the program's writer has its library as it loads.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  const out = buildSync({
    ...PRELUDE_BUILD,
    entryPoints: [path.join(import.meta.dirname, 'sandbox', 'prelude.ts')],
    write: false,
  });
  const [file] = out.outputFiles;
  if (!file) throw new Error('The runtime library was not built.');
  return file.text;
}
