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

export const sdkModuleSchema = z.object({
  name: z.string().min(1).max(214),
  version: z.string().max(100),
});

/** An SDK function version (spec 001 §3). */
export const sdkFunctionSchema = z.object({
  ...versionedDocumentFields,
  functionName: z.string(),
  jsCode: z.string(),
  testPayload: z.unknown(),
  documentation: z.string(),
  input: z.string(),
  output: z.string(),
  error: z.string(),
  modules: z.array(sdkModuleSchema),
});

/** An entry of the SDK listing: everything but the code and the test payload. */
export const sdkListEntrySchema = sdkFunctionSchema.omit({ jsCode: true, testPayload: true });

/** POST /sdk: `{functionName, jsCode}` for a new one, or the full object with its `_id`. */
export const sdkSaveBodySchema = z.object({
  _id: idSchema.optional(),
  sys_version: z.number().int().optional(),
  functionName: functionNameSchema,
  jsCode: z.string().max(SDK_LIMITS.code, 'The code is too long').optional(),
  testPayload: z.unknown().optional(),
  documentation: z.string().max(SDK_LIMITS.text).optional(),
  input: z.string().max(SDK_LIMITS.text).optional(),
  output: z.string().max(SDK_LIMITS.text).optional(),
  error: z.string().max(SDK_LIMITS.text).optional(),
  modules: z.array(sdkModuleSchema).max(SDK_LIMITS.modules).optional(),
  folder: idSchema.nullable().optional(),
});

/** POST /sdk/{name}/execute: the argument array. */
export const sdkExecuteBodySchema = z.object({
  payload: z.array(z.unknown()).max(SDK_LIMITS.arguments, `At most ${SDK_LIMITS.arguments} arguments`).optional(),
});

export const sdkExecuteResultSchema = z.object({
  output: z.unknown(),
  logs: z.array(runLogEntrySchema),
});

export const sdkNameParamsSchema = z.object({ name: functionNameSchema });

export type SdkFunction = z.infer<typeof sdkFunctionSchema>;
export type SdkListEntry = z.infer<typeof sdkListEntrySchema>;
export type SdkSaveBody = z.infer<typeof sdkSaveBodySchema>;
