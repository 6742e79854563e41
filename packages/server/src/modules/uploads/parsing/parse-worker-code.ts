import fs from 'node:fs';
import path from 'node:path';

const ENTRY = path.join(import.meta.dirname, 'parse.worker.ts');
/** The script `npm run build` bundled (scripts/build-server.mjs), beside the built server's code. */
const BUILT = path.join(import.meta.dirname, 'parse-worker.cjs');

let built: Promise<string> | undefined;

/**
 * The parse worker's code as one CommonJS script, its modules and parsers bundled together, run
 * with `eval`: the built server reads the script bundled at build, a server run from its sources
 * (tests, benches) bundles it once per process. A worker that loaded the TypeScript sources itself
 * needed the TypeScript loader in its thread, with a thread of its own for the loader's hooks:
 * about 0.55 s of CPU to boot and 39 MiB each, against about 0.2 s and 18 MiB for the script.
 */
export function parseWorkerCode(): Promise<string> {
  built ??= readOrBundle().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

async function readOrBundle(): Promise<string> {
  // Only the build puts the script there: beside the sources there is none.
  return fs.existsSync(BUILT) ? fs.promises.readFile(BUILT, 'utf8') : bundle();
}

async function bundle(): Promise<string> {
  const { build, stop } = await import('esbuild');
  // The bundler's own process ends once it answered (it would start again if asked anything more).
  const out = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  }).finally(() => stop());
  const [file] = out.outputFiles;
  if (!file) throw new Error('The parse worker was not built.');
  return file.text;
}
