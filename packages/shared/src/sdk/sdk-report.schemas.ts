import { z } from 'zod';
import { idSchema } from '../users/users.schemas.ts';

/** The report's words (docs/product.md §17). */
export const VULNERABILITY_MESSAGES = {
  none: 'No vulnerable packages',
  noData: 'No advisory data could be read',
  noModules: 'This SDK function uses no npm module',
} as const;

/** GET /sdk/vulnerabilities: the SDK function version, and whether to read the advisory set again first. */
export const vulnerabilityQuerySchema = z.object({
  id: idSchema.describe('SDK function version id.'),
  refresh: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe("true: read the operator's advisory set again before checking ('Recheck for vulnerabilities')."),
});

/** One advisory that affects a module at the version the function uses. */
export const advisorySchema = z.object({
  id: z.string().describe('The advisory id (GHSA-…, CVE-…, OSV id).'),
  summary: z.string().describe('What it is about; empty when the advisory says nothing.'),
  severity: z
    .string()
    .nullable()
    .describe('Its severity as the advisory gives it (e.g. HIGH, or a CVSS vector); null when none.'),
  aliases: z.array(z.string()).describe('Other ids of the same advisory.'),
  fixed: z.string().nullable().describe('The first version that fixes it for this module; null when none is known.'),
  url: z.string().nullable().describe('A reference to read more; null when none.'),
});

export const vulnerablePackageSchema = z.object({
  name: z.string().describe('The npm module.'),
  version: z.string().describe('The version the function uses.'),
  advisories: z.array(advisorySchema).describe('The advisories affecting that version.'),
});

/**
 * The vulnerability report of an SDK function version: its modules matched against the operator's
 * OSV advisory set. `checked` is true only when the set could be read; 'No vulnerable packages' is
 * said only then, and only when nothing matched.
 */
export const vulnerabilityReportSchema = z.object({
  _id: z.string().describe('The SDK function version checked.'),
  checked: z.boolean().describe('True when advisory data was read and every module matched against it.'),
  vulnerable: z.array(vulnerablePackageSchema).describe('The modules some advisory affects; empty when none (or not checked).'),
  modules: z
    .array(
      z.object({
        name: z.string().describe('The npm module.'),
        version: z.string().describe('The version the function uses.'),
      }),
    )
    .describe('The modules checked.'),
  message: z
    .string()
    .describe(
      "'No vulnerable packages' when the check ran and found none; otherwise how many are vulnerable, or why nothing was checked.",
    ),
  error: z.string().nullable().describe('Why no advisory data could be read; null when it was.'),
  advisories: z
    .object({
      source: z.string().nullable().describe('The advisory set (file or URL) read; null when none is set.'),
      count: z.number().describe('Advisories it holds for npm.'),
      readAt: z.string().nullable().describe('When it was read (ISO date-time); null when it never was.'),
    })
    .describe("The operator's advisory set as last read."),
});

export type Advisory = z.infer<typeof advisorySchema>;
export type VulnerablePackage = z.infer<typeof vulnerablePackageSchema>;
export type VulnerabilityReport = z.infer<typeof vulnerabilityReportSchema>;
