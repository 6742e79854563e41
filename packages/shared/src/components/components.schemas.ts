import { z } from 'zod';
import { idSchema } from '../users/users.schemas.ts';
import { versionedDocumentFields } from './versioned-document.ts';

export const COMPONENT_KINDS = ['workflow', 'forEach', 'instruction', 'function'] as const;
export type ComponentKind = (typeof COMPONENT_KINDS)[number];

/** Limits the server enforces on a component body (docs/product.md §16.1 sets none). */
export const COMPONENT_LIMITS = {
  name: 200,
  description: 10_000,
  portName: 100,
  ports: 100,
  instances: 500,
  links: 2000,
  code: 512 * 1024,
  sdk: 200,
} as const;

/** A link's code when none is written: the value travels unchanged (docs/product.md §16.1). */
export const DEFAULT_LINK_CODE = 'output = input;';

const name = (what: string) =>
  z
    .string({ error: `The ${what} name is required` })
    .min(1, `The ${what} name is required`)
    .max(COMPONENT_LIMITS.portName, `The ${what} name can have at most ${COMPONENT_LIMITS.portName} characters`);

/** A data model reference as a body carries it: a schema version id, empty, or nothing. */
const schemaRefBody = z
  .union([idSchema, z.literal('')])
  .nullable()
  .optional();
/** A link end as a body carries it: an instance name, or empty/nothing for the component's own port. */
const endpointBody = z.string().max(COMPONENT_LIMITS.portName).nullable().optional();

const isJoin = 'Gathers every value that arrives into one array.';
const isFork = 'Sends each element of an array on its own.';

export const inputPortBodySchema = z.object({
  name: name('input').describe('Port name, unique among the inputs; the code reads ctx.input[name].'),
  inputSchema: schemaRefBody.describe('Id of the data model (schema version) values must satisfy; empty for none.'),
  isJoin: z.boolean().optional().describe(isJoin),
  isFork: z.boolean().optional().describe(isFork),
  inputIsJoin: z.boolean().optional().describe('The values arriving from outside are gathered into one array.'),
});

export const outputPortBodySchema = z.object({
  name: name('output').describe('Port name, unique among the outputs; the code fills ctx.output[name].'),
  outputSchema: schemaRefBody.describe('Id of the data model (schema version) values must satisfy; empty for none.'),
  isJoin: z.boolean().optional().describe(isJoin),
  isFork: z.boolean().optional().describe(isFork),
});

export const instanceSchema = z.object({
  name: name('instance').describe('Instance name, unique in the workflow; links name it.'),
  /** The component version this instance runs. */
  instanceOf: idSchema.describe('Id of the component version this instance runs.'),
});

export const linkBodySchema = z.object({
  name: name('link').describe('Link name, unique in the component.'),
  fromInstance: endpointBody.describe("The instance the value comes from; empty: the component's own input port."),
  fromPort: name('port').describe('The port the value comes from.'),
  toInstance: endpointBody.describe("The instance the value goes to; empty: the component's own output port."),
  toPort: name('port').describe('The port the value goes to.'),
  jsCode: z
    .string()
    .max(COMPONENT_LIMITS.code)
    .nullable()
    .optional()
    .describe('Maps the value on its way: reads input, sets output. Empty: the value goes through unchanged.'),
  inputSchema: schemaRefBody.describe('Ignored: filled from the linked ports on save.'),
  outputSchema: schemaRefBody.describe('Ignored: filled from the linked ports on save.'),
});

/** An input port: its data model (schema version id or null) and how values gather or spread. */
export const inputPortSchema = z.object({
  name: z.string().describe('Port name; the code reads ctx.input[name].'),
  inputSchema: z.string().nullable().describe('Id of the data model values must satisfy; null for none.'),
  isJoin: z.boolean().describe(isJoin),
  isFork: z.boolean().describe(isFork),
  inputIsJoin: z.boolean().describe('The values arriving from outside are gathered into one array.'),
});

export const outputPortSchema = z.object({
  name: z.string().describe('Port name; the code fills ctx.output[name].'),
  outputSchema: z.string().nullable().describe('Id of the data model values must satisfy; null for none.'),
  isJoin: z.boolean().describe(isJoin),
  isFork: z.boolean().describe(isFork),
});

export const linkSchema = z.object({
  name: z.string().describe('Link name.'),
  fromInstance: z.string().describe("The instance the value comes from; empty: the component's own input port."),
  fromPort: z.string().describe('The port the value comes from.'),
  toInstance: z.string().describe("The instance the value goes to; empty: the component's own output port."),
  toPort: z.string().describe('The port the value goes to.'),
  jsCode: z.string().describe('Maps the value on its way: reads input, assigns output (or returns it).'),
  inputSchema: z.string().nullable().describe('The data model of the port it leaves, filled on save.'),
  outputSchema: z.string().nullable().describe('The data model of the port it reaches, filled on save.'),
});

export type InputPort = z.infer<typeof inputPortSchema>;
export type OutputPort = z.infer<typeof outputPortSchema>;
export type Instance = z.infer<typeof instanceSchema>;
export type Link = z.infer<typeof linkSchema>;

const KIND =
  'workflow: instances joined by links; forEach: its inner graph once per array element; instruction: code filling ctx.output; function: code whose return value is its output.';

/** A component version as the editor reads it (docs/product.md §16.1). */
export const componentSchema = z.object({
  ...versionedDocumentFields,
  name: z.string().describe('Name.'),
  description: z.string().describe('What the component does.'),
  kind: z.enum(COMPONENT_KINDS).describe(KIND),
  testPayload: z.unknown().describe('The ctx.input the editor tests with (an empty object when new).'),
  testContext: z.unknown().describe('The ctx.rt_context the editor tests with (an empty object when new).'),
  inputs: z.array(inputPortSchema).describe('Input ports.'),
  outputs: z.array(outputPortSchema).describe('Output ports.'),
  instances: z.array(instanceSchema).describe('For workflow and forEach: the components used inside.'),
  links: z.array(linkSchema).describe('For workflow and forEach: the wires between ports.'),
  jsCode: z.string().describe('For instruction and function: the body of an async function given ctx and sdk.'),
  dependencies: z.array(z.string()).describe('Ids of the component versions its instances run.'),
  sdk: z.array(z.string()).describe('Ids of the SDK function versions its code may call.'),
});

export type Component = z.infer<typeof componentSchema>;

/** An entry of the component dropdown list. */
export const componentListEntrySchema = z.object({
  _id: z.string().describe('Id of this version.'),
  familyId: z.string().describe('Id shared by every version of the component.'),
  name: z.string().describe('Name.'),
  version: z.number().describe('Version number.'),
  vLocked: z.boolean().describe('True for a locked (production) version.'),
  kind: z.enum(COMPONENT_KINDS).describe(KIND),
  folder: z.string().nullable().describe('Id of its folder; null at the top.'),
  description: z.string().describe('What the component does.'),
});

export type ComponentListEntry = z.infer<typeof componentListEntrySchema>;

const list = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z.array(item).max(max, `A component can have at most ${max} ${what}`);

/**
 * POST /components: a new component sends its name and folder; a saved one sends its full body
 * with its `_id` (and the sys_version it was read at, to refuse overwriting someone else's save).
 */
export const componentSaveBodySchema = z.object({
  _id: idSchema.optional().describe('The component version to save; absent to create a component.'),
  sys_version: z.number().int().optional().describe('The sys_version it was read at: a save over a newer one is refused (409).'),
  name: z
    .string({ error: 'Please input the component name' })
    .trim()
    .min(1, 'Please input the component name')
    .max(COMPONENT_LIMITS.name, `The component name can have at most ${COMPONENT_LIMITS.name} characters`)
    .describe('Name, 1 to 200 characters.'),
  folder: idSchema.nullable().optional().describe('Id of its folder; null at the top.'),
  description: z.string().max(COMPONENT_LIMITS.description).optional().describe('What the component does.'),
  kind: z.enum(COMPONENT_KINDS, { error: 'The kind is workflow, forEach, instruction or function' }).optional().describe(KIND),
  testPayload: z.unknown().optional().describe('The ctx.input the editor tests with.'),
  testContext: z.unknown().optional().describe('The ctx.rt_context the editor tests with.'),
  inputs: list(inputPortBodySchema, COMPONENT_LIMITS.ports, 'inputs').optional().describe('Input ports (at most 100).'),
  outputs: list(outputPortBodySchema, COMPONENT_LIMITS.ports, 'outputs').optional().describe('Output ports (at most 100).'),
  instances: list(instanceSchema, COMPONENT_LIMITS.instances, 'instances')
    .optional()
    .describe('For workflow and forEach: the components used inside (at most 500).'),
  links: list(linkBodySchema, COMPONENT_LIMITS.links, 'links')
    .optional()
    .describe('For workflow and forEach: the wires between ports (at most 2000).'),
  jsCode: z
    .string()
    .max(COMPONENT_LIMITS.code, 'The code is too long')
    .optional()
    .describe('For instruction and function: the body of an async function given ctx and sdk (at most 512 KiB).'),
  sdk: list(idSchema, COMPONENT_LIMITS.sdk, 'SDK functions')
    .optional()
    .describe('Ids of the SDK function versions the code may call.'),
});

export type ComponentSaveBody = z.infer<typeof componentSaveBodySchema>;

export const idQuerySchema = z.object({ id: idSchema.describe('Version id.') });
export const idParamsSchema = z.object({ id: idSchema.describe('Component version id.') });

/** GET /components: ids as a comma-joined list or repeated. */
export const idsQuerySchema = z.object({
  ids: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => [...new Set((Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))])
    .pipe(z.array(idSchema).max(1000))
    .describe('Component version ids, joined by commas or repeated (at most 1000).'),
});
