import { usageSchema } from '@gdb/shared/components/hierarchy.schemas';
import {
  type SdkFunction,
  type SdkSaveBody,
  sdkExecuteResultSchema,
  sdkFunctionSchema,
  sdkListEntrySchema,
} from '@gdb/shared/sdk/sdk.schemas';
import { vulnerabilityReportSchema } from '@gdb/shared/sdk/sdk-report.schemas';
import { z } from 'zod';
import { api } from '../request/api.ts';

export const sdkKeys = {
  all: ['sdk'] as const,
  find: (id: string) => ['sdk', 'find', id] as const,
  documentation: ['sdk', 'documentation'] as const,
  vulnerabilities: (id: string) => ['sdk', 'vulnerabilities', id] as const,
  usages: (id: string) => ['sdk', 'usages', id] as const,
};

/** GET /sdk/find: one SDK function version. */
export const findSdk = (id: string, signal?: AbortSignal): Promise<SdkFunction> =>
  api.get('/sdk/find', sdkFunctionSchema, { query: { id }, ...(signal ? { signal } : {}) });

/**
 * POST /sdk: creates an SDK function (`{functionName}` and its folder, no `_id`) or saves a
 * draft's full body, refused (409) when `sys_version` is older than the stored one.
 */
export const saveSdk = (body: SdkSaveBody): Promise<SdkFunction> => api.post('/sdk', body, sdkFunctionSchema);

/**
 * POST /sdk/{name}/execute: runs the newest version of the function with these arguments; with a
 * `runId` its log lines are sent on the live channel (`testLogs`) while it runs.
 */
export const executeSdk = (functionName: string, payload: unknown[], runId?: string) =>
  api.post(`/sdk/${encodeURIComponent(functionName)}/execute`, { payload, runId }, sdkExecuteResultSchema);

/** GET /components/documentation: the SDK functions components may call, with their documentation. */
export const sdkDocumentation = (signal?: AbortSignal) =>
  api.get('/components/documentation', z.array(sdkListEntrySchema), signal ? { signal } : {});

/**
 * GET /sdk/vulnerabilities: the version's modules matched against the operator's advisory set;
 * with `refresh` the set is read again first ('Recheck for vulnerabilities').
 */
export const sdkVulnerabilities = (id: string, refresh: boolean, signal?: AbortSignal) =>
  api.get('/sdk/vulnerabilities', vulnerabilityReportSchema, {
    query: { id, ...(refresh ? { refresh: 'true' } : {}) },
    ...(signal ? { signal } : {}),
  });

/** GET /sdk/usages: the component versions that call the function (name, version, url). */
export const sdkUsages = (id: string, signal?: AbortSignal) =>
  api.get('/sdk/usages', z.array(usageSchema), { query: { id }, ...(signal ? { signal } : {}) });
