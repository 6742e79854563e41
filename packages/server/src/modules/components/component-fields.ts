import {
  type Component,
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
import { z } from 'zod';
import { versionFields } from '../../platform/db/versioned-row.ts';
import type { Reference } from '../access/access.service.ts';
import type { ComponentRow, componentsRepo } from './components.repo.ts';

const inputsSchema = z.array(inputPortSchema).catch([]);
const outputsSchema = z.array(outputPortSchema).catch([]);
const instancesSchema = z.array(instanceSchema).catch([]);
const linksSchema = z.array(linkSchema).catch([]);

/** A stored component row as the API answers it (lists kept to their shape, anything else dropped). */
export function toComponent(row: ComponentRow): Component {
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

/** What a save sends. */
export type Body = ComponentSaveBody;

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

/** The ids without repeats, in first-seen order. */
export const sameSet = (ids: readonly string[]) => [...new Set(ids)];

/** How a save body becomes the columns of a component version. */
export function componentFields(repo: ReturnType<typeof componentsRepo>) {
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

  /** The columns a body sets, with the references they hold; what it leaves out keeps its stored value. */
  async function fieldsOf(body: Body, current: Component | null) {
    const inputs = body.inputs ? inputsOf(body.inputs) : (current?.inputs ?? []);
    const outputs = body.outputs ? outputsOf(body.outputs) : (current?.outputs ?? []);
    const instances = body.instances ?? current?.instances ?? [];
    const links = body.links ? await linksOf(body.links, inputs, outputs, instances) : (current?.links ?? []);
    const sdk = sameSet(body.sdk ?? current?.sdk ?? []);
    const columns = {
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
      sdk,
      dependencies: sameSet(instances.map((i) => i.instanceOf)),
    };
    const definition = { kind: columns.kind, inputs, outputs, instances, links };
    return { columns, definition, references: referencesOf({ inputs, outputs, instances, sdk }) };
  }

  return fieldsOf;
}

/** What a component names, field by field: its ports' data models, its instances' components, its SDK functions. */
export function referencesOf(c: Pick<Component, 'inputs' | 'outputs' | 'instances' | 'sdk'>): Reference[] {
  return [
    ...c.inputs.flatMap((p, i) =>
      p.inputSchema ? [{ path: `inputs[${i}].inputSchema`, kind: 'schema' as const, id: p.inputSchema }] : [],
    ),
    ...c.outputs.flatMap((p, i) =>
      p.outputSchema ? [{ path: `outputs[${i}].outputSchema`, kind: 'schema' as const, id: p.outputSchema }] : [],
    ),
    ...c.instances.map((inst, i) => ({ path: `instances[${i}].instanceOf`, kind: 'component' as const, id: inst.instanceOf })),
    ...c.sdk.map((id, i) => ({ path: `sdk[${i}]`, kind: 'sdk' as const, id })),
  ];
}
