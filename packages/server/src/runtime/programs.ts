import type { SdkFunction } from '@gdb/shared/sdk/sdk.schemas';
import type { Config } from '../platform/config.ts';
import { errorMessage } from '../platform/error-message.ts';
import { checkGraph, label } from './checks.ts';
import { generateProgram, generateSdkProgram, type Program, RUNTIME_REVISION } from './codegen.ts';
import { type ComponentGraph, type DocumentSource, fingerprint, loadGraph } from './graph.ts';
import type { IsolatePool } from './isolate-pool.ts';
import { modelCompiler } from './model-compiler.ts';
import { buildModels } from './models.ts';
import { PromiseCache } from './promise-cache.ts';
import { buildFailure } from './run-failure.ts';
import type { SdkModules } from './sdk-modules.ts';
import { checkSyntax } from './syntax-check.ts';

const PROGRAM_CACHE_SIZE = 200;

/** True when every document of the graph is a locked version, so its program can never change. */
function isLocked(graph: ComponentGraph): boolean {
  if (graph.missingComponents.size + graph.missingSchemas.size + graph.missingSdk.size > 0) return false;
  for (const c of graph.components.values()) if (!c.vLocked) return false;
  for (const s of graph.schemas.values()) if (!s.vLocked) return false;
  for (const f of graph.sdk.values()) if (!f.vLocked) return false;
  return true;
}

/** Which ports use each data model, for messages about a model that does not compile. */
function portModels(graph: ComponentGraph): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (id: string | null, where: string) => {
    if (!id || !graph.schemas.has(id)) return;
    out.set(id, [...(out.get(id) ?? []), where]);
  };
  for (const c of graph.components.values()) {
    for (const p of c.inputs) add(p.inputSchema, `${label(c)}, input port "${p.name}"`);
    for (const p of c.outputs) add(p.outputSchema, `${label(c)}, output port "${p.name}"`);
  }
  return out;
}

/**
 * The programs runs take: a component version's built from its current documents (or taken from
 * the cache), an SDK function version's on its own; code that does not compile is a build failure.
 */
/** The bundled code of the npm modules these SDK functions use, by name@version; a module that cannot be had is a build problem. */
async function modulesOf(fns: Iterable<SdkFunction>, sdkModules: SdkModules): Promise<Map<string, string>> {
  const code = new Map<string, string>();
  const problems: { component: string; message: string }[] = [];
  for (const f of fns) {
    for (const m of f.modules) {
      const key = `${m.name}@${m.version}`;
      if (code.has(key)) continue;
      try {
        code.set(key, await sdkModules.code(m));
      } catch (error) {
        problems.push({
          component: f.functionName,
          message: `SDK function "${f.functionName}" v${f.version}: ${errorMessage(error)}`,
        });
      }
    }
  }
  if (problems.length > 0) throw buildFailure(problems);
  return code;
}

export function programBuilds(options: {
  settings: Config['runtime'];
  source: DocumentSource;
  syntaxPool: IsolatePool;
  sdkModules: SdkModules;
}) {
  const { settings, source, syntaxPool, sdkModules } = options;
  const programs = new PromiseCache<Program>(PROGRAM_CACHE_SIZE);
  const lockedPrograms = new PromiseCache<Program>(PROGRAM_CACHE_SIZE);
  const sdkPrograms = new PromiseCache<Program>(PROGRAM_CACHE_SIZE);
  const models = modelCompiler(settings.modelCompile);

  async function compile(graph: ComponentGraph): Promise<Program> {
    const orders = checkGraph(graph);
    const problems: { component: string; message: string }[] = [];
    const validators = await buildModels(graph.schemas, portModels(graph), problems, models);
    if (problems.length > 0) throw buildFailure(problems);
    const program = generateProgram(graph, orders, validators, await modulesOf(graph.sdk.values(), sdkModules));
    const syntax = await checkSyntax(syntaxPool, program.blocks, settings.memoryMiB);
    if (syntax.length > 0) throw buildFailure(syntax);
    return program;
  }

  /**
   * The program of a component version: built from its current documents (`graph` when the caller
   * has read them already), or taken from the cache.
   */
  async function program(componentId: string, opts: { fresh?: boolean; graph?: ComponentGraph } = {}): Promise<Program> {
    // A locked version whose whole closure is locked never changes: no need to read it again.
    const settled = opts.fresh ? undefined : lockedPrograms.get(componentId);
    if (settled) return settled;
    const graph = opts.graph ?? (await loadGraph(source, componentId));
    const key = fingerprint(graph, RUNTIME_REVISION);
    const cached = opts.fresh ? undefined : programs.get(key);
    const built = cached ?? compile(graph);
    if (!cached) programs.set(key, built);
    if (isLocked(graph)) lockedPrograms.set(componentId, built);
    return built;
  }

  /** The program of an SDK function version, from the cache when it has not changed. */
  function sdkProgram(fn: SdkFunction): Promise<Program> {
    const key = `${fn._id} ${fn.sys_version} ${fn.lastUpdateDate} ${RUNTIME_REVISION}`;
    let built = sdkPrograms.get(key);
    if (!built) {
      built = (async () => {
        const p = generateSdkProgram(fn, await modulesOf([fn], sdkModules));
        const syntax = await checkSyntax(syntaxPool, p.blocks, settings.memoryMiB);
        if (syntax.length > 0) throw buildFailure(syntax);
        return p;
      })();
      sdkPrograms.set(key, built);
    }
    return built;
  }

  return { program, sdkProgram };
}
