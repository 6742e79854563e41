import { z } from 'zod';

/** What the activity records (docs/product.md, the Activity page). */
export const ACTIVITY_KINDS = [
  'cell-corrected',
  'row-removed',
  'row-restored',
  'corrected-file',
  'document-saved',
  'document-locked',
  'document-versioned',
  'document-updated',
  'document-deleted',
  'user-roles',
  'user-badges',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The kinds as the Activity page names them. */
export const ACTIVITY_KIND_LABELS: Record<ActivityKind, string> = {
  'cell-corrected': 'Cell corrected',
  'row-removed': 'Row removed',
  'row-restored': 'Row kept again',
  'corrected-file': 'Corrected file submitted',
  'document-saved': 'Saved',
  'document-locked': 'Locked',
  'document-versioned': 'New version',
  'document-updated': 'Dependencies updated',
  'document-deleted': 'Deleted',
  'user-roles': 'Roles changed',
  'user-badges': 'Badges changed',
};

/** Said in place of a document the reader's badges do not open. */
export const CLOSED_DOCUMENT = 'A document you cannot read';

const ACTIVITY_PAGE_MAX = 200;
export const ACTIVITY_EXPORT_MAX = 100_000;

export const activityQuerySchema = z.object({
  actor: z.string().max(200).optional().describe('Only what this user did (user name, or part of it).'),
  kind: z.enum(ACTIVITY_KINDS).optional().describe('Only this kind of change.'),
  document: z.string().max(200).optional().describe('Only changes of documents whose name holds this text, or of this id.'),
  uploadId: z.string().uuid().optional().describe('Only the corrections of this upload.'),
  from: z.string().datetime({ offset: true }).optional().describe('From this moment (ISO date-time).'),
  to: z.string().datetime({ offset: true }).optional().describe('Until this moment (ISO date-time).'),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0).describe('Entries to skip.'),
  limit: z.coerce.number().int().min(1).max(ACTIVITY_PAGE_MAX).default(50).describe('Most entries to answer.'),
});
export type ActivityQuery = z.input<typeof activityQuerySchema>;

const activityEntrySchema = z.object({
  _id: z.string().describe('Entry id.'),
  at: z.string().describe('When (ISO date-time).'),
  actor: z.string().describe('Who: their user name.'),
  kind: z.enum(ACTIVITY_KINDS).describe('What kind of change.'),
  documentKind: z.string().nullable().describe('schema, component, sdk, pipeline; null for a user change.'),
  documentId: z.string().nullable().describe('The version changed; null when closed to the reader.'),
  documentName: z.string().nullable().describe('Its name, or the words for a document the reader cannot read.'),
  documentVersion: z.number().nullable().describe('Its version number.'),
  uploadId: z.string().nullable().describe('The upload corrected.'),
  targetUser: z.string().nullable().describe('The user whose roles or badges changed.'),
  details: z.record(z.string(), z.unknown()).describe('What changed: the row and column, from and to.'),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityPageSchema = z.object({
  total: z.number().describe('Entries the filters keep.'),
  entries: z.array(activityEntrySchema).describe('The page, newest first.'),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;
