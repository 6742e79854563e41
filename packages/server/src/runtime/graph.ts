import crypto from 'node:crypto';
import type { Component } from '@gdb/shared/components/components.schemas';
import type { SchemaDocument } from '@gdb/shared/schemas/schemas.schemas';
import type { SdkFunction } from '@gdb/shared/sdk/sdk.schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import { notFound } from '../platform/http/errors.ts';
import { buildFailure } from './run-failure.ts';

/** Where the runtime reads documents from: the components, schemas and sdk services. */
export interface DocumentSource {
  components(ids: readonly string[]): Promise<Component[]>;
  schemas(ids: readonly string[]): Promise<SchemaDocument[]>;
  sdkFunctions(ids: readonly string[]): Promise<SdkFunction[]>;
}

/** A component version with everything it instantiates, the data models of their ports and their SDK functions. */
export interface ComponentGraph {
  root: Component;
  components: Map<string, Component>;
  schemas: Map<string, SchemaDocument>;
  sdk: Map<string, SdkFunction>;
  /** References that point at nothing: reported by the checks with the component that holds them. */
  missingComponents: Set<string>;
  missingSchemas: Set<string>;
  missingSdk: Set<string>;
}

const MAX_COMPONENTS = 5000;

/** Loads a component version and its whole closure, level by level (one query per level and kind). */
export async function loadGraph(source: DocumentSource, rootId: string): Promise<ComponentGraph> {
  const components = new Map<string, Component>();
  const missingComponents = new Set<string>();
  let frontier = [rootId];
  while (frontier.length > 0) {
    if (components.size > MAX_COMPONENTS) {
      throw buildFailure([{ component: rootId, message: `A component graph can hold at most ${MAX_COMPONENTS} components.` }]);
    }
    const found = await source.components(frontier);
    const byId = new Map(found.map((c) => [c._id, c]));
    const next = new Set<string>();
    for (const id of frontier) {
      const c = byId.get(id);
      if (!c) {
        missingComponents.add(id);
        continue;
      }
      components.set(id, c);
      for (const inst of c.instances) {
        if (!components.has(inst.instanceOf) && !missingComponents.has(inst.instanceOf)) next.add(inst.instanceOf);
      }
    }
    frontier = onlyIds(next, missingComponents);
  }
  const root = components.get(rootId);
  if (!root) throw notFound('Document not found');

  const schemaIds = new Set<string>();
  const sdkIds = new Set<string>();
  for (const c of components.values()) {
    for (const p of c.inputs) if (p.inputSchema) schemaIds.add(p.inputSchema);
    for (const p of c.outputs) if (p.outputSchema) schemaIds.add(p.outputSchema);
    for (const s of c.sdk) sdkIds.add(s);
  }
  const { schemas, missing: missingSchemas } = await loadSchemas(source, schemaIds);
  const missingSdk = new Set<string>();
  const sdkFound = await source.sdkFunctions(onlyIds(sdkIds, missingSdk));
  const sdk = new Map(sdkFound.map((f) => [f._id, f]));
  for (const id of sdkIds) if (!sdk.has(id)) missingSdk.add(id);
  return { root, components, schemas, sdk, missingComponents, missingSchemas, missingSdk };
}

/**
 * The schema ids a JSON schema points at through `$ref` (a schema version id, optionally with a
 * fragment), each with where: `jsonSchema.properties.a.$ref`.
 */
export function schemaRefPaths(jsonSchema: unknown): { path: string; id: string }[] {
  const out: { path: string; id: string }[] = [];
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${path}[${i}]`);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const id = key === '$ref' && typeof value === 'string' ? (value.split('#')[0] ?? '') : '';
      if (isId(id)) out.push({ path: `${path}.$ref`, id });
      else walk(value, `${path}.${key}`);
    }
  };
  walk(jsonSchema, 'jsonSchema');
  return out;
}

/** Schema ids a JSON schema points at through `$ref`, each once. */
export const schemaRefs = (jsonSchema: unknown): string[] => [...new Set(schemaRefPaths(jsonSchema).map((r) => r.id))];

/** The well-formed ids of a set; the others are recorded as missing (no query could find them). */
function onlyIds(ids: Iterable<string>, missing: Set<string>): string[] {
  const ok: string[] = [];
  for (const id of ids) {
    if (isId(id)) ok.push(id);
    else missing.add(id);
  }
  return ok;
}

async function loadSchemas(source: DocumentSource, ids: Set<string>) {
  const schemas = new Map<string, SchemaDocument>();
  const missing = new Set<string>();
  let frontier = onlyIds(ids, missing);
  while (frontier.length > 0) {
    const found = await source.schemas(frontier);
    const byId = new Map(found.map((s) => [s._id, s]));
    const next = new Set<string>();
    for (const id of frontier) {
      const s = byId.get(id);
      if (!s) {
        missing.add(id);
        continue;
      }
      schemas.set(id, s);
      for (const ref of schemaRefs(s.jsonSchema)) if (!schemas.has(ref) && !missing.has(ref)) next.add(ref);
    }
    frontier = [...next];
  }
  return { schemas, missing };
}

/**
 * What makes a graph's program different from another's: every document's id and save counter,
 * and the revision of the runtime library itself.
 */
export function fingerprint(graph: ComponentGraph, runtimeRevision: string, salt = ''): string {
  const h = crypto.createHash('sha256');
  h.update(`${runtimeRevision}\n${salt}\n${graph.root._id}\n`);
  const entries: string[] = [];
  for (const c of graph.components.values()) entries.push(`c ${c._id} ${c.sys_version} ${c.lastUpdateDate}`);
  for (const s of graph.schemas.values()) entries.push(`s ${s._id} ${s.sys_version} ${s.lastUpdateDate}`);
  for (const f of graph.sdk.values()) entries.push(`f ${f._id} ${f.sys_version} ${f.lastUpdateDate}`);
  for (const id of graph.missingComponents) entries.push(`-c ${id}`);
  for (const id of graph.missingSchemas) entries.push(`-s ${id}`);
  for (const id of graph.missingSdk) entries.push(`-f ${id}`);
  entries.sort();
  h.update(entries.join('\n'));
  return h.digest('hex');
}
