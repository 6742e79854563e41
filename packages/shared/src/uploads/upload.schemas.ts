import { z } from 'zod';

/** Largest file the server accepts, and the tip the drop zones show. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const FILE_SIZE_TIP = 'Files must be less than 20 MiB';
/** The upload widget's messages (docs/product.md §9.6). */
export const UPLOAD_MESSAGES = {
  failed: 'Upload failed, please try again later!',
  succeeded: 'Uploaded successfully!',
  allFailed: 'Uploading files all failed!',
  someFailed: 'Some files failed to upload!',
} as const;
/** Uploads listed per data source in 'Last uploaded list'. */
export const LAST_LIST_SIZE = 10;

export const UPLOAD_STATUSES = ['pending', 'processing', 'valid', 'invalid'] as const;

/** An upload or produced file as the screens read it (docs/product.md §9.3). */
export const uploadViewSchema = z.object({
  _id: z.string().describe('Upload id.'),
  pipelineId: z.string().describe('Id of the pipeline the file belongs to.'),
  from: z
    .enum(['source', 'destination'])
    .describe('source: a file that went in (uploaded or fetched); destination: a file an import wrote.'),
  dataSubKind: z.string().describe('The data source (for source) or data sink (for destination) it belongs to.'),
  status: z
    .enum(UPLOAD_STATUSES)
    .describe('pending and processing while it is checked or written; then valid or invalid (the reason is in its logs).'),
  createdAt: z.string().describe('When it was stored (ISO date-time).'),
  originalFilename: z.string().nullable().describe('The file name as uploaded or written; null when unknown.'),
  contentType: z.string().nullable().describe('The MIME type of the file; null when unknown.'),
  size: z.number().describe('Size in bytes.'),
  rowCount: z.number().nullable().describe('Rows read or written; null until known.'),
  importId: z.string().nullable().describe('The import that wrote it (destination); null for a source file.'),
  enabled: z.boolean().describe('Whether a run takes it; switched off, the file stays but is skipped.'),
  importedAt: z
    .string()
    .nullable()
    .describe(
      'When an import that ended done took this source file (ISO date-time); runs then leave it until it is switched on again.',
    ),
  importedBy: z.string().nullable().describe('The import that took this source file; null while none has.'),
  sentFrom: z.enum(['wizard', 'testing']).describe('Where a source file was sent from: the import wizard or the testing view.'),
  correctedFrom: z
    .string()
    .nullable()
    .optional()
    .describe('The upload this one corrects: made from its file and the corrections of its review.'),
});
export type UploadView = z.infer<typeof uploadViewSchema>;

/** The last uploads of one data source. */
export const lastListSchema = z.object({
  dataSubKind: z.string().describe('The data source.'),
  data: z.array(uploadViewSchema).describe('Its newest uploads, newest first.'),
});
export type LastList = z.infer<typeof lastListSchema>;

export const uuidSchema = z.string().uuid('must be an id');
/** A comma-separated list of ids in a query string. */
export const idListSchema = z
  .string()
  .max(20_000)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(uuidSchema).min(1).max(500));

const pipelineIdField = uuidSchema.describe('Pipeline id.');

export const statusQuerySchema = z.object({ ids: idListSchema.describe('Upload ids joined by commas (at most 500).') });
export const lastQuerySchema = z.object({
  pipelineId: pipelineIdField,
  dataSubKind: z.string().min(1).max(64).describe('The data source.'),
});
/** Where an upload request comes from: the testing view labels its files so. */
export const SENT_FROM_FIELD = 'sentFrom';
export type SentFrom = UploadView['sentFrom'];

export const lastAllQuerySchema = z.object({ pipelineId: pipelineIdField });
export const outputsQuerySchema = z.object({ pipelineId: pipelineIdField });
export const disableBodySchema = z.object({
  id: uuidSchema.describe('Upload id.'),
  enabled: z.boolean().default(false).describe('Whether runs take the upload (false by default: disable it).'),
});
export const realtimeBodySchema = z.object({
  pipelineId: pipelineIdField,
  dataSubKinds: z.array(z.string().min(1).max(64)).min(1).max(50).describe('The real-time data sources to fetch now.'),
});
export const exportBodySchema = z.object({
  uploadIds: z.array(uuidSchema).min(1).max(200).describe('The uploads to download: one answers its file, several a zip.'),
});

/** True when the newest upload of every listed data source is valid (a wizard step is ready). */
export function lastUploadsValid(lists: readonly LastList[], dataSubKinds: readonly string[]): boolean {
  return dataSubKinds.every((kind) => lists.find((l) => l.dataSubKind === kind)?.data[0]?.status === 'valid');
}
