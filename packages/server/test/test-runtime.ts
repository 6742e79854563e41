import type { Component, InputPort, Link, OutputPort } from '@gdb/shared/components/components.schemas';
import type { SchemaDocument } from '@gdb/shared/schemas/schemas.schemas';
import type { SdkFunction } from '@gdb/shared/sdk/sdk.schemas';
import pino from 'pino';
import { loadConfig } from '../src/platform/config.ts';
import { newId } from '../src/platform/ids.ts';
import type { DocumentSource } from '../src/runtime/graph.ts';
import { type RuntimeService, runtimeService } from '../src/runtime/runtime.service.ts';
import { sdkModules } from '../src/runtime/sdk-modules.ts';

// Factories for runtime tests: documents kept in memory, no database.

const common = (name: string) => ({
  _id: newId(),
  familyId: newId(),
  version: 1,
  vLocked: false,
  vParents: [],
  read_only: false,
  write_access: true,
  sys_version: 1,
  folder: null,
  tags: { read: [], write: [] },
  metadataTags: [],
  createDate: '2026-01-01T00:00:00.000Z',
  lastUpdateDate: '2026-01-01T00:00:00.000Z',
  name,
});

type PortSpec = string | (Partial<InputPort> & { name: string; schema?: string });
type OutSpec = string | (Partial<OutputPort> & { name: string; schema?: string });

const input = (p: PortSpec): InputPort =>
  typeof p === 'string'
    ? { name: p, inputSchema: null, isJoin: false, isFork: false, inputIsJoin: false }
    : {
        name: p.name,
        inputSchema: p.schema ?? p.inputSchema ?? null,
        isJoin: p.isJoin ?? false,
        isFork: p.isFork ?? false,
        inputIsJoin: p.inputIsJoin ?? false,
      };

const output = (p: OutSpec): OutputPort =>
  typeof p === 'string'
    ? { name: p, outputSchema: null, isJoin: false, isFork: false }
    : { name: p.name, outputSchema: p.schema ?? p.outputSchema ?? null, isJoin: p.isJoin ?? false, isFork: p.isFork ?? false };

/** A link written `from.port -> to.port` (an empty instance is the component's own port). */
export function link(spec: string, jsCode = '', name?: string): Link {
  const m = /^\s*([^.\s]*)\.([^\s]+)\s*->\s*([^.\s]*)\.([^\s]+)\s*$/.exec(spec);
  if (!m) throw new Error(`bad link spec ${spec}`);
  return {
    name: name ?? spec,
    fromInstance: m[1] ?? '',
    fromPort: m[2] ?? '',
    toInstance: m[3] ?? '',
    toPort: m[4] ?? '',
    jsCode,
    inputSchema: null,
    outputSchema: null,
  };
}

export interface ComponentSpec {
  name: string;
  kind: Component['kind'];
  inputs?: PortSpec[];
  outputs?: OutSpec[];
  jsCode?: string;
  instances?: [string, Component | string][];
  links?: Link[];
  sdk?: SdkFunction[];
}

export function component(spec: ComponentSpec): Component {
  return {
    ...common(spec.name),
    description: '',
    kind: spec.kind,
    testPayload: {},
    testContext: {},
    inputs: (spec.inputs ?? []).map(input),
    outputs: (spec.outputs ?? []).map(output),
    instances: (spec.instances ?? []).map(([name, c]) => ({ name, instanceOf: typeof c === 'string' ? c : c._id })),
    links: spec.links ?? [],
    jsCode: spec.jsCode ?? '',
    dependencies: [],
    sdk: (spec.sdk ?? []).map((f) => f._id),
  };
}

export function schema(name: string, jsonSchema: Record<string, unknown>): SchemaDocument {
  return { ...common(name), jsonSchema };
}

export function sdkFunction(functionName: string, jsCode: string): SdkFunction {
  const { name: _name, ...rest } = common(functionName);
  return { ...rest, functionName, jsCode, testPayload: [], documentation: '', input: '', output: '', error: '', modules: [] };
}

/** Documents held in memory, answered the way the services answer them. */
export class MemorySource implements DocumentSource {
  readonly docs = {
    components: new Map<string, Component>(),
    schemas: new Map<string, SchemaDocument>(),
    sdk: new Map<string, SdkFunction>(),
  };

  add(...items: (Component | SchemaDocument | SdkFunction)[]): this {
    for (const item of items) {
      if ('kind' in item) this.docs.components.set(item._id, item);
      else if ('functionName' in item) this.docs.sdk.set(item._id, item);
      else this.docs.schemas.set(item._id, item);
    }
    return this;
  }

  async components(ids: readonly string[]) {
    return ids.flatMap((id) => this.docs.components.get(id) ?? []);
  }
  async schemas(ids: readonly string[]) {
    return ids.flatMap((id) => this.docs.schemas.get(id) ?? []);
  }
  async sdkFunctions(ids: readonly string[]) {
    return ids.flatMap((id) => this.docs.sdk.get(id) ?? []);
  }
}

/** A runtime over in-memory documents, with test-run limits that can be lowered per test file. */
export function memoryRuntime(
  source: MemorySource,
  settings: Partial<ReturnType<typeof loadConfig>['runtime']> = {},
  allowedModules: readonly string[] = [],
): RuntimeService {
  const base = loadConfig({ LOG_LEVEL: 'silent' }).runtime;
  return runtimeService({
    settings: { ...base, ...settings },
    log: pino({ level: 'silent' }),
    source,
    sdkModules: sdkModules(allowedModules),
  });
}

/** Runs a component on a payload object and answers the parsed output, logs and rt_context. */
export async function run(
  rt: RuntimeService,
  c: Component,
  payload: unknown,
  options: { rtContext?: unknown; checkPorts?: boolean } = {},
) {
  const outcome = await rt.runComponent({
    componentId: c._id,
    inputJson: JSON.stringify(payload),
    rtContextJson: JSON.stringify(options.rtContext ?? {}),
    checkPorts: options.checkPorts ?? true,
  });
  return { output: JSON.parse(outcome.outputJson), logs: outcome.logs, rtContext: JSON.parse(outcome.rtContextJson) };
}
