import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Issue } from '@gdb/shared/api/envelope';
import { moduleSpecProblem } from '@gdb/shared/sdk/sdk.schemas';
import type * as Esbuild from 'esbuild';
import { errorMessage } from '../platform/error-message.ts';
import { invalid } from '../platform/http/errors.ts';

/** A module an SDK function names: a package and its exact version. */
export interface SdkModule {
  name: string;
  version: string;
}

const requireHere = createRequire(import.meta.url);

/** The version of a package in the server's own node_modules, or null when it has none. */
function installedVersion(name: string): string | null {
  for (const dir of requireHere.resolve.paths(name) ?? []) {
    const file = path.join(dir, name, 'package.json');
    if (!fs.existsSync(file)) continue;
    const json: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (json && typeof json === 'object' && 'version' in json && typeof json.version === 'string') return json.version;
  }
  return null;
}

/** The bundle being built: one at a time, as each stops the bundler's process once it answered. */
let last: Promise<unknown> = Promise.resolve();

/** One module as a CommonJS factory body for the sandbox: the package with everything it requires, no Node API. */
function bundleModule(name: string): Promise<string> {
  const built = last.then(() => bundleNow(name));
  last = built.catch(() => undefined);
  return built;
}

async function bundleNow(name: string): Promise<string> {
  const { build, stop } = (await import('esbuild')) as typeof Esbuild;
  // The bundler's own process ends once it answered (it starts again when asked for another module).
  const out = await build({
    stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: import.meta.dirname, loader: 'js' },
    bundle: true,
    format: 'cjs',
    // No Node built-ins inside an isolate: a package needing one does not bundle.
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    minify: true,
  }).finally(() => stop());
  const [file] = out.outputFiles;
  if (!file) throw new Error('nothing was built');
  return file.text;
}

/**
 * The npm modules SDK functions may use (docs/product.md §17): the allow-list (SDK_MODULES), the
 * versions the server's node_modules hold, and each module bundled for the sandbox once per
 * name@version and kept for the process (no network: only what is installed is bundled).
 */
export function sdkModules(allowed: readonly string[]) {
  const allow = new Set(allowed);
  const bundles = new Map<string, Promise<string>>();

  /** Why a module cannot be used, naming it; null when it can. */
  function problem(m: SdkModule): string | null {
    const spec = moduleSpecProblem(m.name, m.version);
    if (spec) return spec;
    if (!allow.has(m.name)) return `Module ${m.name} is not on the server's allow-list of SDK modules`;
    const installed = installedVersion(m.name);
    if (!installed) return `Module ${m.name} is not installed on the server`;
    if (m.version && m.version !== installed) {
      return `Module ${m.name}: version ${m.version} is not the one installed on the server (${installed})`;
    }
    return null;
  }

  return {
    /** The allow-list, with the version each module has on this server (null when not installed). */
    allowList: () => [...allow].map((name) => ({ name, version: installedVersion(name) })),

    /**
     * The modules of a save, each on the allow-list and installed, an empty version filled with
     * the installed one; refuses (422) every module that is not, naming it, at `modules.{i}`.
     */
    resolve(modules: readonly SdkModule[]): SdkModule[] {
      const issues: Issue[] = modules.flatMap((m, i) => {
        const message = problem(m);
        return message ? [{ path: `modules.${i}.${/^Module .+: version/.test(message) ? 'version' : 'name'}`, message }] : [];
      });
      const [first] = issues;
      if (first) throw invalid(first.message, issues);
      return modules.map((m) => ({ name: m.name, version: m.version || (installedVersion(m.name) ?? '') }));
    },

    /** The module's code for the sandbox, bundled on first use; refused when it cannot be used here. */
    code(m: SdkModule): Promise<string> {
      const refused = problem(m);
      if (refused) return Promise.reject(new Error(refused));
      const key = `${m.name}@${m.version}`;
      let code = bundles.get(key);
      if (!code) {
        code = bundleModule(m.name).catch((error: unknown) => {
          bundles.delete(key);
          throw new Error(`Module ${m.name} cannot be bundled for the sandbox: ${errorMessage(error)}`);
        });
        bundles.set(key, code);
      }
      return code;
    },
  };
}

export type SdkModules = ReturnType<typeof sdkModules>;
