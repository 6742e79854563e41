import {
  type SdkFunction,
  type SdkSaveBody,
  sdkExecuteResultSchema,
  sdkFunctionSchema,
  sdkListEntrySchema,
} from '@gdb/shared/sdk/sdk.schemas';
import { z } from 'zod';
import { api } from '../request/api.ts';

export const sdkKeys = {
  all: ['sdk'] as const,
  find: (id: string) => ['sdk', 'find', id] as const,
  documentation: ['sdk', 'documentation'] as const,
};

/** GET /sdk/find: one SDK function version. */
export const findSdk = (id: string, signal?: AbortSignal): Promise<SdkFunction> =>
  api.get('/sdk/find', sdkFunctionSchema, { query: { id }, ...(signal ? { signal } : {}) });

/**
 * POST /sdk: creates an SDK function (`{functionName}` and its folder, no `_id`) or saves a
 * draft's full body, refused (409) when `sys_version` is older than the stored one.
 */
export const saveSdk = (body: SdkSaveBody): Promise<SdkFunction> => api.post('/sdk', body, sdkFunctionSchema);

/** POST /sdk/{name}/execute: runs the newest version of the function with these arguments. */
export const executeSdk = (functionName: string, payload: unknown[]) =>
  api.post(`/sdk/${encodeURIComponent(functionName)}/execute`, { payload }, sdkExecuteResultSchema);

/** GET /components/documentation: the SDK functions components may call, with their documentation. */
export const sdkDocumentation = (signal?: AbortSignal) =>
  api.get('/components/documentation', z.array(sdkListEntrySchema), signal ? { signal } : {});

