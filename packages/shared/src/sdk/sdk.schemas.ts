import { z } from 'zod';
import { runLogEntrySchema } from '../components/run.schemas.ts';
import { versionedDocumentFields } from '../components/versioned-document.ts';
import { idSchema } from '../users/users.schemas.ts';

export const SDK_LIMITS = { functionName: 100, code: 512 * 1024, text: 20_000, modules: 50, arguments: 100 } as const;

/** What a new SDK function's code is when none is given: an asynchronous function answering a sentence. */
export const DEFAULT_SDK_CODE = "async function () {\n  return 'Hello from the SDK';\n}";

/** `sdk.<functionName>(…)` is how components call it, so the name is a JavaScript identifier. */
export const functionNameSchema = z
  .string({ error: 'Please input the function name' })
  .trim()
  .min(1, 'Please input the function name')
  .max(SDK_LIMITS.functionName, `The function name can have at most ${SDK_LIMITS.functionName} characters`)
  .regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, 'The function name must be a JavaScript identifier (letters, digits, _ and $)');

/** An npm package name as the registry takes it: no path, URL or git spec (a scope, then lower-case letters, digits, - . _ ~). */
const NPM_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
/** An exact version (semver), or empty for the one the server has: no range, tag, path, URL or git spec. */
const EXACT_VERSION = /^(?:|(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;

/** Why a module of an SDK function cannot be one, naming it; null when its name and version are well formed. */
export function moduleSpecProblem(name: string, version: string): string | null {
  if (name.length > 214 || !NPM_NAME.test(name)) {
    return `Module ${JSON.stringify(name)} is not an npm package name (paths, URLs and git specs are refused)`;
  }
  if (version.length > 100 || !EXACT_VERSION.test(version)) {
    return `Module ${name}: version ${JSON.stringify(version)} is not an exact version (ranges, tags, paths, URLs and git specs are refused)`;
  }
  return null;
}

export const sdkModuleSchema = z.object({
  name: z.string().describe('npm package name, from the allow-list (SDK_MODULES).'),
  version: z.string().describe("Its exact version: the one the server's node_modules held when it was saved."),
});

/** A module as a save sends it: a package name and an exact version (empty: the one the server has), each checked. */
export const sdkModuleBodySchema = z
  .object({
    name: z.string().min(1).max(1000).describe('npm package name, from the allow-list (SDK_MODULES).'),
    version: z.string().max(1000).describe("Its exact version, the one the server's node_modules hold; empty for that one."),
  })
  .superRefine((m, ctx) => {
    const problem = moduleSpecProblem(m.name, m.version);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [NPM_NAME.test(m.name) ? 'version' : 'name'] });
  });

/** An SDK function version (docs/product.md §17). */
export const sdkFunctionSchema = z.object({
  ...versionedDocumentFields,
  functionName: z.string().describe('The name components call it by: sdk.{functionName}(…).'),
  jsCode: z.string().describe('The function, as JavaScript.'),
  testPayload: z.unknown().describe('The argument array the editor tests with.'),
  documentation: z.string().describe('What the function does.'),
  input: z.string().describe('What it takes.'),
  output: z.string().describe('What it answers.'),
  error: z.string().describe('What it throws, and when.'),
  modules: z.array(sdkModuleSchema).describe('The npm modules it uses.'),
});

/** An entry of the SDK listing: everything but the code and the test payload. */
export const sdkListEntrySchema = sdkFunctionSchema.omit({ jsCode: true, testPayload: true });

/** POST /sdk: `{functionName, jsCode}` for a new one, or the full object with its `_id`. */
export const sdkSaveBodySchema = z.object({
  _id: idSchema.optional().describe('The version to save; absent to create a function.'),
  sys_version: z.number().int().optional().describe('The sys_version it was read at: a save over a newer one is refused (409).'),
  functionName: functionNameSchema.describe('A JavaScript identifier: components call sdk.{functionName}(…).'),
  jsCode: z
    .string()
    .max(SDK_LIMITS.code, 'The code is too long')
    .optional()
    .describe('The function, as JavaScript (at most 512 KiB); absent: a default that answers a sentence.'),
  testPayload: z.unknown().optional().describe('The argument array the editor tests with.'),
  documentation: z.string().max(SDK_LIMITS.text).optional().describe('What the function does.'),
  input: z.string().max(SDK_LIMITS.text).optional().describe('What it takes.'),
  output: z.string().max(SDK_LIMITS.text).optional().describe('What it answers.'),
  error: z.string().max(SDK_LIMITS.text).optional().describe('What it throws, and when.'),
  modules: z.array(sdkModuleBodySchema).max(SDK_LIMITS.modules).optional().describe('The npm modules it uses (at most 50).'),
  folder: idSchema.nullable().optional().describe('Id of its folder; null at the top.'),
});

/** POST /sdk/{name}/execute: the argument array. */
export const sdkExecuteBodySchema = z.object({
  payload: z
    .array(z.unknown())
    .max(SDK_LIMITS.arguments, `At most ${SDK_LIMITS.arguments} arguments`)
    .optional()
    .describe('The arguments to call the function with (at most 100).'),
  runId: z
    .uuid()
    .optional()
    .describe(
      "A new id the editor makes for this run: its log lines are sent on the live channel's `testLogs` collection, filtered by `runId`, while it runs.",
    ),
});

export const sdkExecuteResultSchema = z.object({
  output: z.unknown().describe('What the function answered.'),
  logs: z.array(runLogEntrySchema).describe('What it logged, in order.'),
});

export const sdkNameParamsSchema = z.object({ name: functionNameSchema.describe('The function name.') });

export type SdkFunction = z.infer<typeof sdkFunctionSchema>;
export type SdkListEntry = z.infer<typeof sdkListEntrySchema>;
export type SdkSaveBody = z.infer<typeof sdkSaveBodySchema>;
