import type { Issue } from '@gdb/shared/api/envelope';
import type { Component } from '@gdb/shared/components/components.schemas';
import type { SchemaDocument } from '@gdb/shared/schemas/schemas.schemas';
import type { SdkFunction } from '@gdb/shared/sdk/sdk.schemas';
import type { Executor } from '../../platform/db/transaction.ts';
import { badRequest } from '../../platform/http/errors.ts';
import { schemaRefPaths } from '../../runtime/graph.ts';
import {
  assertReferencesReadable,
  type CallerAccess,
  type Reference,
  type ReferencedDocument,
} from '../access/access.service.ts';
import { referencesOf } from './component-fields.ts';
import type { componentsRepo } from './components.repo.ts';

/** Where a component's save reads the documents it names that other modules own. */
export interface ReferenceReads {
  /** The data model versions among these ids that exist; inside a transaction, held until it ends. */
  dataModels(executor: Executor, ids: readonly string[]): Promise<ReferencedDocument[]>;
  /** The SDK function versions among these ids that exist. */
  sdkFunctions(ids: readonly string[]): Promise<ReferencedDocument[]>;
}

/** The component a save checks, as messages name it, with its ports. */
export interface SavedDefinition {
  name: string;
  version: number;
  inputs: readonly { name: string }[];
  outputs: readonly { name: string }[];
}

/** The refusal of a port naming a data model that does not exist, in the words of docs/product.md §16.3, naming the component. */
function missingDataModel(c: SavedDefinition, ref: Reference): string {
  const m = /^(inputs|outputs)\[(\d+)\]/.exec(ref.path);
  const port = m ? (m[1] === 'inputs' ? c.inputs : c.outputs)[Number(m[2])] : undefined;
  const where = port && m ? `${m[1] === 'inputs' ? 'input' : 'output'} port "${port.name}"` : ref.path;
  return `Component "${c.name}" v${c.version}: ${where}: Cannot load schema ${ref.id} from server`;
}

/** A field path as issues write it: `inputs[0].inputSchema` → `inputs.0.inputSchema`. */
const dotted = (path: string) => path.replace(/\[(\d+)\]/g, '.$1');

const idsOf = (refs: readonly Reference[], kind: Reference['kind']) => [
  ...new Set(refs.filter((r) => r.kind === kind).map((r) => r.id)),
];

/** The checks of what a component names, on save: each data model exists, and the caller may read every reference. */
export function componentReferences(repo: ReturnType<typeof componentsRepo>, reads: ReferenceReads) {
  /** The documents named that exist, by id, read now (outside any transaction: the read check reads folders too). */
  async function found(executor: Executor, refs: readonly Reference[]): Promise<Map<string, ReferencedDocument>> {
    const [models, components, sdk] = await Promise.all([
      reads.dataModels(executor, idsOf(refs, 'schema')),
      repo.byIds(idsOf(refs, 'component')),
      reads.sdkFunctions(idsOf(refs, 'sdk')),
    ]);
    const docs: ReferencedDocument[] = [
      ...models,
      ...components.map((c) => ({ id: c.id, folder: c.folder_id, tags: c.tags })),
      ...sdk,
    ];
    return new Map(docs.map((d) => [d.id, d]));
  }

  return {
    /** Refuses (403) a reference the caller may not read, naming its field, not the document. */
    async assertReadable(executor: Executor, caller: CallerAccess, refs: readonly Reference[]): Promise<void> {
      await assertReferencesReadable(caller, refs, await found(executor, refs));
    },

    /**
     * Refuses (400) a port naming a data model that does not exist; in `trx`, the ones that do are
     * held until it commits, so one deleted at the same moment either refuses this save or waits for it.
     */
    async assertModelsExist(trx: Executor, refs: readonly Reference[], saved: SavedDefinition): Promise<void> {
      const models = refs.filter((r) => r.kind === 'schema');
      const held = new Set((await reads.dataModels(trx, idsOf(models, 'schema'))).map((d) => d.id));
      const issues: Issue[] = models
        .filter((r) => !held.has(r.id))
        .map((r) => ({ path: dotted(r.path), message: missingDataModel(saved, r) }));
      const [first] = issues;
      if (first) throw badRequest(first.message, issues);
    },
  };
}

/** A component version's closure as a run builds it: the components, data models and SDK functions it names, at any depth. */
export interface ComponentClosure {
  components: ReadonlyMap<string, Component>;
  schemas: ReadonlyMap<string, SchemaDocument>;
  sdk: ReadonlyMap<string, SdkFunction>;
}

/**
 * Refuses (403) a run of a closure holding a document the caller may not read, naming the field
 * that names it and the component (or data model) holding that field: components are visited from
 * the root down, so the holder of the first refused reference is one the caller may read.
 */
export async function assertClosureReadable(caller: CallerAccess, closure: ComponentClosure): Promise<void> {
  const docs = [...closure.components.values(), ...closure.schemas.values(), ...closure.sdk.values()];
  const found = new Map(docs.map((d) => [d._id, { id: d._id, folder: d.folder, tags: d.tags }]));
  const held = (holder: string, refs: Reference[]) => refs.map((r) => ({ ...r, path: `${r.path} of ${holder}` }));
  for (const c of closure.components.values()) await assertReferencesReadable(caller, held(c._id, referencesOf(c)), found);
  for (const s of closure.schemas.values()) {
    const refs = schemaRefPaths(s.jsonSchema).map((r): Reference => ({ ...r, kind: 'schema' }));
    await assertReferencesReadable(caller, held(s._id, refs), found);
  }
}
