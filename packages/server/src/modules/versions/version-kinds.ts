import type { VersionKind } from '@gdb/shared/versions/versions.schemas';
import { schemaRefs } from '../../runtime/graph.ts';
import type { VersionedRow, VersionedTable } from './versions.repo.ts';

/** A reference from one document version to another. */
interface Ref {
  kind: VersionKind;
  id: string;
  /**
   * A version an update may replace by a newer one but never makes a new version of (a country
   * pipeline's master): the update does not walk into it.
   */
  pinned?: true;
}

/** Old version id → new version id: what an update moves references to. */
type Moves = ReadonlyMap<string, string>;

/**
 * How a kind of versioned document plugs into the version engine: its table, what it depends
 * on, and how a copy of it points at other versions.
 */
export interface KindAdapter {
  kind: VersionKind;
  table: VersionedTable;
  /** The document's name in messages ('This schema is read-only.'). */
  what: string;
  nameOf(row: VersionedRow): string;
  /** The column `nameOf` reads, for the queries that read a few columns only (the explorer trees). */
  nameColumn: string;
  isMaster(row: VersionedRow): boolean;
  /** The versions it depends on directly. */
  refs(row: VersionedRow): Ref[];
  /** The columns to set on a copy so that it points at the moved versions (write form), or null when none moves. */
  rewrite(row: VersionedRow, moves: Moves): Record<string, unknown> | null;
  /** For each kind it can point at, the columns holding those references (who-uses checks). */
  refColumns: Partial<Record<VersionKind, readonly string[]>>;
}

const list = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const ids = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const refsOf = (kind: VersionKind, values: readonly (string | null)[]): Ref[] =>
  values.flatMap((id) => (id ? [{ kind, id }] : []));

/** A reference moved when the map has it; anything else unchanged. */
const moved = <T>(value: T, moves: Moves): T => (typeof value === 'string' ? ((moves.get(value) as T) ?? value) : value);

/** The same objects with the named fields moved; null when nothing changed. */
function moveFields(items: Record<string, unknown>[], fields: readonly string[], moves: Moves) {
  let changed = false;
  const out = items.map((item) => {
    const copy = { ...item };
    for (const f of fields) {
      const next = moved(copy[f], moves);
      if (next !== copy[f]) {
        copy[f] = next;
        changed = true;
      }
    }
    return copy;
  });
  return { out, changed };
}

/** A JSON schema with its `$ref`s to moved versions pointing at the new ones (the fragment kept). */
function moveSchemaRefs(node: unknown, moves: Moves): { out: unknown; changed: boolean } {
  if (Array.isArray(node)) {
    const parts = node.map((n) => moveSchemaRefs(n, moves));
    return { out: parts.map((p) => p.out), changed: parts.some((p) => p.changed) };
  }
  if (node === null || typeof node !== 'object') return { out: node, changed: false };
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const [id = '', ...fragment] = value.split('#');
      const to = moves.get(id);
      out[key] = to ? [to, ...fragment].join('#') : value;
      changed ||= to !== undefined;
    } else {
      const inner = moveSchemaRefs(value, moves);
      out[key] = inner.out;
      changed ||= inner.changed;
    }
  }
  return { out, changed };
}

const schemaKind: KindAdapter = {
  kind: 'schema',
  table: 'schemas',
  what: 'schema',
  nameOf: (row) => String(row.name),
  nameColumn: 'name',
  isMaster: () => false,
  refs: (row) => refsOf('schema', schemaRefs(row.json_schema)),
  rewrite(row, moves) {
    const { out, changed } = moveSchemaRefs(row.json_schema, moves);
    return changed ? { json_schema: JSON.stringify(out) } : null;
  },
  refColumns: { schema: ['json_schema'] },
};

const componentKind: KindAdapter = {
  kind: 'component',
  table: 'components',
  what: 'component',
  nameOf: (row) => String(row.name),
  nameColumn: 'name',
  isMaster: () => false,
  refs: (row) => [
    ...refsOf(
      'schema',
      list(row.inputs).map((p) => text(p.inputSchema)),
    ),
    ...refsOf(
      'schema',
      list(row.outputs).map((p) => text(p.outputSchema)),
    ),
    ...refsOf(
      'component',
      list(row.instances).map((i) => text(i.instanceOf)),
    ),
    ...refsOf('sdk', ids(row.sdk)),
  ],
  rewrite(row, moves) {
    const inputs = moveFields(list(row.inputs), ['inputSchema'], moves);
    const outputs = moveFields(list(row.outputs), ['outputSchema'], moves);
    const instances = moveFields(list(row.instances), ['instanceOf'], moves);
    const links = moveFields(list(row.links), ['inputSchema', 'outputSchema'], moves);
    const sdk = ids(row.sdk).map((id) => moved(id, moves));
    const sdkChanged = sdk.some((id, i) => id !== ids(row.sdk)[i]);
    if (!(inputs.changed || outputs.changed || instances.changed || links.changed || sdkChanged)) return null;
    return {
      inputs: JSON.stringify(inputs.out),
      outputs: JSON.stringify(outputs.out),
      instances: JSON.stringify(instances.out),
      links: JSON.stringify(links.out),
      sdk,
      dependencies: [...new Set(instances.out.map((i) => text(i.instanceOf)).filter((id): id is string => id !== null))],
    };
  },
  refColumns: { schema: ['inputs', 'outputs', 'links'], component: ['dependencies'], sdk: ['sdk'] },
};

const sdkKind: KindAdapter = {
  kind: 'sdk',
  table: 'sdk_functions',
  what: 'SDK function',
  nameOf: (row) => String(row.function_name),
  nameColumn: 'function_name',
  isMaster: () => false,
  refs: () => [],
  rewrite: () => null,
  refColumns: {},
};

const pipelineKind: KindAdapter = {
  kind: 'pipeline',
  table: 'pipelines',
  what: 'pipeline',
  nameOf: (row) => String(row.name),
  nameColumn: 'name',
  isMaster: (row) => row.is_master === true,
  refs: (row) => [
    ...refsOf('component', [text(row.component)]),
    ...refsOf('schema', [text(row.pipeline_schema), ...list(row.data_sources).map((s) => text(s.dataModel))]),
    // A country follows a newer version of its master; updating a country never makes a new master.
    ...refsOf('pipeline', [text(row.master_pipeline)]).map((r) => ({ ...r, pinned: true as const })),
  ],
  rewrite(row, moves) {
    const sources = moveFields(list(row.data_sources), ['dataModel'], moves);
    const component = moved(row.component, moves);
    const schema = moved(row.pipeline_schema, moves);
    const master = moved(row.master_pipeline, moves);
    const same = component === row.component && schema === row.pipeline_schema && master === row.master_pipeline;
    if (!sources.changed && same) return null;
    return { component, pipeline_schema: schema, master_pipeline: master, data_sources: JSON.stringify(sources.out) };
  },
  refColumns: { schema: ['pipeline_schema', 'data_sources'], component: ['component'], pipeline: ['master_pipeline'] },
};

/** Every kind the engine versions. */
export const KINDS: Readonly<Record<VersionKind, KindAdapter>> = {
  schema: schemaKind,
  component: componentKind,
  sdk: sdkKind,
  pipeline: pipelineKind,
};
