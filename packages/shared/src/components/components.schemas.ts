import { z } from 'zod';
import { idSchema } from '../users/users.schemas.ts';
import { versionedDocumentFields } from './versioned-document.ts';

export const COMPONENT_KINDS = ['workflow', 'forEach', 'instruction', 'function'] as const;
export type ComponentKind = (typeof COMPONENT_KINDS)[number];

/** Limits the server enforces on a component body (spec 001 §9 leaves them open). */
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

/** A link's code when none is written: the value travels unchanged (spec 001 §3). */
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

export const inputPortBodySchema = z.object({
  name: name('input'),
  inputSchema: schemaRefBody,
  isJoin: z.boolean().optional(),
  isFork: z.boolean().optional(),
  inputIsJoin: z.boolean().optional(),
});

export const outputPortBodySchema = z.object({
  name: name('output'),
  outputSchema: schemaRefBody,
  isJoin: z.boolean().optional(),
  isFork: z.boolean().optional(),
});

export const instanceSchema = z.object({
  name: name('instance'),
  /** The component version this instance runs. */
  instanceOf: idSchema,
});

export const linkBodySchema = z.object({
  name: name('link'),
  fromInstance: endpointBody,
  fromPort: name('port'),
  toInstance: endpointBody,
  toPort: name('port'),
  jsCode: z.string().max(COMPONENT_LIMITS.code).nullable().optional(),
  inputSchema: schemaRefBody,
  outputSchema: schemaRefBody,
});

/** An input port: its data model (schema version id or null) and how values gather or spread. */
export const inputPortSchema = z.object({
  name: z.string(),
  inputSchema: z.string().nullable(),
  isJoin: z.boolean(),
  isFork: z.boolean(),
  inputIsJoin: z.boolean(),
});

export const outputPortSchema = z.object({
  name: z.string(),
  outputSchema: z.string().nullable(),
  isJoin: z.boolean(),
  isFork: z.boolean(),
});

export const linkSchema = z.object({
  name: z.string(),
  /** Empty: the component's own input port. */
  fromInstance: z.string(),
  fromPort: z.string(),
  /** Empty: the component's own output port. */
  toInstance: z.string(),
  toPort: z.string(),
  /** Maps the value on its way: reads `input`, assigns `output` (or returns it). */
  jsCode: z.string(),
  /** Filled from the linked ports on save. */
  inputSchema: z.string().nullable(),
  outputSchema: z.string().nullable(),
});

export type InputPort = z.infer<typeof inputPortSchema>;
export type OutputPort = z.infer<typeof outputPortSchema>;
export type Instance = z.infer<typeof instanceSchema>;
export type Link = z.infer<typeof linkSchema>;

/** A component version as the editor reads it (spec 001 §3). */
export const componentSchema = z.object({
  ...versionedDocumentFields,
  name: z.string(),
  description: z.string(),
  kind: z.enum(COMPONENT_KINDS),
  testPayload: z.unknown(),
  testContext: z.unknown(),
  inputs: z.array(inputPortSchema),
  outputs: z.array(outputPortSchema),
  instances: z.array(instanceSchema),
  links: z.array(linkSchema),
  jsCode: z.string(),
  /** The component versions its instances run. */
  dependencies: z.array(z.string()),
  /** The SDK function versions its code may call. */
  sdk: z.array(z.string()),
});

export type Component = z.infer<typeof componentSchema>;

/** An entry of the component dropdown list. */
export const componentListEntrySchema = z.object({
  _id: z.string(),
  familyId: z.string(),
  name: z.string(),
  version: z.number(),
  vLocked: z.boolean(),
  kind: z.enum(COMPONENT_KINDS),
  folder: z.string().nullable(),
  description: z.string(),
});

export type ComponentListEntry = z.infer<typeof componentListEntrySchema>;

const list = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z.array(item).max(max, `A component can have at most ${max} ${what}`);

/**
 * POST /components: a new component sends its name and folder; a saved one sends its full body
 * with its `_id` (and the sys_version it was read at, to refuse overwriting someone else's save).
 */
export const componentSaveBodySchema = z.object({
  _id: idSchema.optional(),
  sys_version: z.number().int().optional(),
  name: z
    .string({ error: 'Please input the component name' })
    .trim()
    .min(1, 'Please input the component name')
    .max(COMPONENT_LIMITS.name, `The component name can have at most ${COMPONENT_LIMITS.name} characters`),
  folder: idSchema.nullable().optional(),
  description: z.string().max(COMPONENT_LIMITS.description).optional(),
  kind: z.enum(COMPONENT_KINDS, { error: 'The kind is workflow, forEach, instruction or function' }).optional(),
  testPayload: z.unknown().optional(),
  testContext: z.unknown().optional(),
  inputs: list(inputPortBodySchema, COMPONENT_LIMITS.ports, 'inputs').optional(),
  outputs: list(outputPortBodySchema, COMPONENT_LIMITS.ports, 'outputs').optional(),
  instances: list(instanceSchema, COMPONENT_LIMITS.instances, 'instances').optional(),
  links: list(linkBodySchema, COMPONENT_LIMITS.links, 'links').optional(),
  jsCode: z.string().max(COMPONENT_LIMITS.code, 'The code is too long').optional(),
  sdk: list(idSchema, COMPONENT_LIMITS.sdk, 'SDK functions').optional(),
});

export type ComponentSaveBody = z.infer<typeof componentSaveBodySchema>;

export const idQuerySchema = z.object({ id: idSchema });
export const idParamsSchema = z.object({ id: idSchema });

/** GET /components: ids as a comma-joined list or repeated. */
export const idsQuerySchema = z.object({
  ids: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => [...new Set((Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))])
    .pipe(z.array(idSchema).max(1000)),
});
