import fs from 'node:fs';
import path from 'node:path';

const built = new Map<string, Promise<string>>();
/** The bundle being built: one at a time, as each stops the bundler's process once it answered. */
let last: Promise<unknown> = Promise.resolve();

/**
 * A worker's code as one CommonJS script, its modules bundled together, run with `eval`: the built
 * server reads the script `npm run build` bundled beside it (`builtName`, scripts/build-server.mjs);
 * a server run from its sources (tests, benches) bundles it once per process. A worker that loaded the TypeScript sources itself needed the TypeScript loader
 * in its thread, with a thread of its own for the loader's hooks: about 0.55 s of CPU to boot and
 * 39 MiB each, against about 0.2 s and 18 MiB for the script (measured on the parse worker).
 */
export function bundledWorkerCode(entry: string, builtName: string): Promise<string> {
  let code = built.get(entry);
  // Only the build puts the script beside this module's bundle: beside the sources there is none.
  const script = path.join(import.meta.dirname, builtName);
  if (!code && fs.existsSync(script)) {
    code = fs.promises.readFile(script, 'utf8');
    built.set(entry, code);
  }
  if (!code) {
    const after = last;
    code = after
      .then(() => bundle(entry))
      .catch((error: unknown) => {
        built.delete(entry);
        throw error;
      });
    built.set(entry, code);
    last = code.catch(() => undefined);
  }
  return code;
}

async function bundle(entry: string): Promise<string> {
  const { build, stop } = await import('esbuild');
  // The bundler's own process ends once it answered (it would start again if asked anything more).
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  }).finally(() => stop());
  const [file] = out.outputFiles;
  if (!file) throw new Error(`The worker ${entry} was not built.`);
  return file.text;
}
