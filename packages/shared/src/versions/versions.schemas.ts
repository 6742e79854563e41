import { z } from 'zod';
import { idSchema } from '../users/users.schemas.ts';

/** The four kinds of versioned documents, one engine for all (docs/product.md §18.1). */
export const VERSION_KINDS = ['schema', 'component', 'sdk', 'pipeline'] as const;
export type VersionKind = (typeof VERSION_KINDS)[number];

/** The messages of the version calls, to the letter (docs/product.md §18.1). */
export const VERSION_MESSAGES = {
  notFound: 'Document not found',
  missingId: 'Update : Missing _id in document',
  missingVersion: 'Update : Missing version in document',
  missingSysVersion: 'Update : Missing sys_version in document',
} as const;

/** The label of a version: '(v.{n} - Prod)' when locked, '(v.{n} - Draft)' otherwise. */
export function versionLabel(version: { version: number; vLocked: boolean }): string {
  return `(v.${version.version} - ${version.vLocked ? 'Prod' : 'Draft'})`;
}

/** One node of a family's version graph. */
export const versionRecordSchema = z.object({
  _id: z.string().describe('Id of the version.'),
  version: z.number().describe('Version number, from 1.'),
  vLocked: z.boolean().describe('True for a locked (production) version, false for a draft.'),
  vParents: z.array(z.string()).describe('Ids of the versions it was made from (the graph edges).'),
  lastUpdateDate: z.string().describe('When it was last saved (ISO date-time).'),
  read_only: z.boolean().describe('True when the document may not be changed.'),
  isMaster: z.boolean().describe('For pipelines: true for a master pipeline; false for every other kind.'),
});
export type VersionRecord = z.infer<typeof versionRecordSchema>;

export const versionIdQuerySchema = z.object({ id: idSchema.describe('Id of a version of the document.') });
export const versionIdBodySchema = z.object({ id: idSchema.describe('Id of the version to act on.') });
export const versionLockBodySchema = z.object({
  id: idSchema.describe('Id of the version to lock.'),
  force: z
    .boolean()
    .optional()
    .describe('Also lock the drafts it depends on, at any depth; without it, such drafts refuse the lock.'),
});

/** A document named in an answer: which version of what. */
export const versionDocSchema = z.object({
  _id: z.string().describe('Id of the version.'),
  kind: z.enum(VERSION_KINDS).describe('What kind of document it is.'),
  familyId: z.string().describe('Id shared by every version of the document.'),
  name: z.string().describe('Name of the document.'),
  version: z.number().describe('Version number.'),
  vLocked: z.boolean().describe('True when locked (production).'),
});
export type VersionDoc = z.infer<typeof versionDocSchema>;

export const lockAnswerSchema = z.object({
  locked: z.array(versionDocSchema).describe('The versions locked by this call: the dependencies first, the asked one last.'),
});
export type LockAnswer = z.infer<typeof lockAnswerSchema>;

export const deleteAnswerSchema = z.object({
  _id: z.string().describe('Id of the deleted version.'),
  version: z.number().describe('Its version number.'),
  next: z.string().nullable().describe('The version to open now: the next one of the family, else the previous one, else null.'),
});
export type DeleteAnswer = z.infer<typeof deleteAnswerSchema>;

/** One dependency in the update report. */
export const updateEntrySchema = z.object({
  doc: versionDocSchema.describe('The version in use today.'),
  needUpdate: z.boolean().describe('True when a newer version of its family exists.'),
  toUpdate: versionDocSchema
    .nullable()
    .describe('The version an update would take (the newest of the family); null when none is newer.'),
  newVersionNumber: z.number().nullable().describe('The version number an update would take; null when none is newer.'),
  newDocIsLocked: z.boolean().describe('True when the version an update would take is locked (production).'),
});
export type UpdateEntry = z.infer<typeof updateEntrySchema>;

const entries = (what: string) => z.array(updateEntrySchema).describe(`The ${what} it depends on, at any depth.`);

/** The update report (docs/product.md §18.1, compute). */
export const updateReportSchema = z.object({
  _id: z.string().describe('Id of the version the report is for.'),
  doc: versionDocSchema.describe('The version the report is for.'),
  needUpdate: z.boolean().describe('True when any dependency has a newer version.'),
  data: z
    .object({
      schemas: entries('data models'),
      components: entries('components'),
      sdk: entries('SDK functions'),
      pipelines: entries('pipelines'),
      needUpdate: z.boolean().describe('True when any dependency has a newer version.'),
    })
    .describe('The dependencies by kind.'),
  updateJobs: z.boolean().describe('Whether the jobs would follow the new version (pipelines; false for the other kinds).'),
  updateCountries: z.boolean().describe('Whether the country pipelines would be updated too (masters; false otherwise).'),
  repeatJobs: z.array(z.unknown()).describe('Repeating jobs pointing at the version (pipelines; empty otherwise).'),
  scheduledJobs: z.array(z.unknown()).describe('Scheduled jobs pointing at the version (pipelines; empty otherwise).'),
});
export type UpdateReport = z.infer<typeof updateReportSchema>;

const idList = (what: string) =>
  z
    .array(idSchema)
    .max(1000)
    .optional()
    .describe(`The ${what} to move to their newer version: ids of the versions in use (or of the newer ones the report names).`);

export const updateDataSchema = z.object({
  id: idSchema.optional().describe('Id of the version to update; required.'),
  schemasToUpdate: idList('data models'),
  componentsToUpdate: idList('components'),
  sdkToUpdate: idList('SDK functions'),
  pipelinesToUpdate: idList('pipelines'),
  updateJobs: z.boolean().optional().describe('For pipelines: move the jobs to the new version (not used by other kinds).'),
});
export type UpdateData = z.infer<typeof updateDataSchema>;

export const updateBodySchema = z.object({
  update_data: updateDataSchema.describe('What to update: the version and the dependencies chosen in the report.'),
});

export const updateSuccessSchema = z.object({
  name: z.string().describe('Name of the document that got a new version.'),
  old_version: z.number().describe('The version it was made from.'),
  new_version: z.number().describe('Its new version number.'),
  newId: z.string().describe('Id of the new version.'),
});
export type UpdateSuccess = z.infer<typeof updateSuccessSchema>;

export const updateAnswerSchema = z.object({
  success: z
    .array(updateSuccessSchema)
    .describe('The new versions made, the dependencies first; the last one is the version to open.'),
});
export type UpdateAnswer = z.infer<typeof updateAnswerSchema>;
