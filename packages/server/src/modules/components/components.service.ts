import {
  type Component,
  type ComponentListEntry,
  type ComponentSaveBody,
  DEFAULT_LINK_CODE,
  type InputPort,
  inputPortSchema,
  instanceSchema,
  type Link,
  linkSchema,
  type OutputPort,
  outputPortSchema,
} from '@gdb/shared/components/components.schemas';
import { isId } from '@gdb/shared/users/users.schemas';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { assertWritable, versionFields } from '../../platform/db/versioned-row.ts';
import { conflict, notFound } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { type ComponentRow, componentsRepo } from './components.repo.ts';

const inputsSchema = z.array(inputPortSchema).catch([]);
const outputsSchema = z.array(outputPortSchema).catch([]);
const instancesSchema = z.array(instanceSchema).catch([]);
const linksSchema = z.array(linkSchema).catch([]);

function toComponent(row: ComponentRow): Component {
  return {
    ...versionFields(row),
    name: row.name,
    description: row.description,
    kind: row.kind,
    testPayload: row.test_payload,
    testContext: row.test_context,
    inputs: inputsSchema.parse(row.inputs),
    outputs: outputsSchema.parse(row.outputs),
    instances: instancesSchema.parse(row.instances),
    links: linksSchema.parse(row.links),
    jsCode: row.js_code,
    dependencies: row.dependencies,
    sdk: row.sdk,
  };
}

type Body = ComponentSaveBody;

const inputsOf = (ports: NonNullable<Body['inputs']>): InputPort[] =>
  ports.map((p) => ({
    name: p.name,
    inputSchema: p.inputSchema || null,
    isJoin: p.isJoin ?? false,
    isFork: p.isFork ?? false,
    inputIsJoin: p.inputIsJoin ?? false,
  }));

const outputsOf = (ports: NonNullable<Body['outputs']>): OutputPort[] =>
  ports.map((p) => ({
    name: p.name,
    outputSchema: p.outputSchema || null,
    isJoin: p.isJoin ?? false,
    isFork: p.isFork ?? false,
  }));

const sameSet = (ids: readonly string[]) => [...new Set(ids)];

/** Components: reusable blocks of code or of instances joined by links (spec 001 §3). */
export function componentsService(ctx: AppContext) {
  const repo = componentsRepo(ctx.db.kysely);

  async function load(id: string): Promise<ComponentRow> {
    const row = isId(id) ? await repo.byId(id) : undefined;
    if (!row) throw notFound('Document not found');
    return row;
  }

  /** Links as saved: ends normalised, code defaulted, and the data models of the ports they join. */
  async function linksOf(
    links: NonNullable<Body['links']>,
    inputs: InputPort[],
    outputs: OutputPort[],
    instances: Component['instances'],
  ) {
    const used = (await repo.byIds(sameSet(instances.map((i) => i.instanceOf)))).map(toComponent);
    const byId = new Map(used.map((c) => [c._id, c]));
    const of = new Map(instances.map((i) => [i.name, byId.get(i.instanceOf)]));
    return links.map((l): Link => {
      const fromInstance = l.fromInstance ?? '';
      const toInstance = l.toInstance ?? '';
      const from = fromInstance
        ? of.get(fromInstance)?.outputs.find((p) => p.name === l.fromPort)?.outputSchema
        : inputs.find((p) => p.name === l.fromPort)?.inputSchema;
      const to = toInstance
        ? of.get(toInstance)?.inputs.find((p) => p.name === l.toPort)?.inputSchema
        : outputs.find((p) => p.name === l.toPort)?.outputSchema;
      return {
        name: l.name,
        fromInstance,
        fromPort: l.fromPort,
        toInstance,
        toPort: l.toPort,
        jsCode: l.jsCode ?? DEFAULT_LINK_CODE,
        inputSchema: from ?? null,
        outputSchema: to ?? null,
      };
    });
  }

  /** The columns a body sets; what it leaves out keeps its stored value. */
  async function fieldsOf(body: Body, current: Component | null) {
    const inputs = body.inputs ? inputsOf(body.inputs) : (current?.inputs ?? []);
    const outputs = body.outputs ? outputsOf(body.outputs) : (current?.outputs ?? []);
    const instances = body.instances ?? current?.instances ?? [];
    const links = body.links ? await linksOf(body.links, inputs, outputs, instances) : (current?.links ?? []);
    return {
      name: body.name,
      folder_id: body.folder !== undefined ? body.folder : (current?.folder ?? null),
      description: body.description ?? current?.description ?? '',
      kind: body.kind ?? current?.kind ?? 'instruction',
      inputs: JSON.stringify(inputs),
      outputs: JSON.stringify(outputs),
      instances: JSON.stringify(instances),
      links: JSON.stringify(links),
      js_code: body.jsCode ?? current?.jsCode ?? '',
      test_payload: JSON.stringify(body.testPayload !== undefined ? body.testPayload : (current?.testPayload ?? {})),
      test_context: JSON.stringify(body.testContext !== undefined ? body.testContext : (current?.testContext ?? {})),
      sdk: sameSet(body.sdk ?? current?.sdk ?? []),
      dependencies: sameSet(instances.map((i) => i.instanceOf)),
    };
  }

  return {
    /** The component versions whose code lists this SDK function version, by name. */
    usingSdkFunction: (id: string): Promise<{ name: string; version: number }[]> => repo.usingSdkFunction(id),
    /** One component version. */
    async find(id: string): Promise<Component> {
      return toComponent(await load(id));
    },

    /** The component versions among these ids that exist, in the order asked. */
    async byIds(ids: readonly string[]): Promise<Component[]> {
      const rows = await repo.byIds(sameSet(ids.filter(isId)));
      const byId = new Map(rows.map((r) => [r.id, toComponent(r)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** Every component version for pickers, by name then version. */
    async list(): Promise<ComponentListEntry[]> {
      return (await repo.list()).map((r) => ({
        _id: r.id,
        familyId: r.family_id,
        name: r.name,
        version: r.version,
        vLocked: r.v_locked,
        kind: r.kind,
        folder: r.folder_id,
        description: r.description,
      }));
    },

    /**
     * Creates a component (a name and folder are enough) or saves a draft version's full body;
     * links take the data models of the ports they join, and a save made on an older copy
     * than the stored one is refused.
     */
    async save(body: Body, userId: string | null): Promise<Component> {
      if (!body._id) {
        const id = newId();
        const row = await repo.insert({
          id,
          family_id: id,
          version: 1,
          ...(await fieldsOf(body, null)),
          created_by: userId,
          updated_by: userId,
        });
        return toComponent(row);
      }
      const before = await load(body._id);
      assertWritable(before, 'component');
      if (body.sys_version !== undefined && body.sys_version !== before.sys_version) {
        throw conflict('This component was saved by someone else since you opened it; reload it.');
      }
      const fields = await fieldsOf(body, toComponent(before));
      const row = await repo.update(before.id, before.sys_version, { ...fields, updated_by: userId });
      if (!row) throw conflict('This component was saved by someone else since you opened it; reload it.');
      return toComponent(row);
    },

    /** Deletes a component version that is not locked and that no other component instantiates. */
    async remove(id: string): Promise<{ _id: string }> {
      const row = await load(id);
      assertWritable(row, 'component');
      const users = (await repo.usedBy(id)).filter((u) => u.id !== id);
      if (users.length > 0) {
        throw conflict(`This component is used by ${users.map((u) => `${u.name} v${u.version}`).join(', ')}.`);
      }
      await repo.remove(id);
      return { _id: id };
    },
  };
}

export type ComponentsService = ReturnType<typeof componentsService>;
