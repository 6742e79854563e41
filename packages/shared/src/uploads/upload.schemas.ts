import { z } from 'zod';

/** Largest file the server accepts, and the tip the drop zones show. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
export const FILE_SIZE_TIP = 'Files must be less than 20 MiB';
/** The upload widget's messages (spec 000 §8). */
export const UPLOAD_MESSAGES = {
  failed: 'Upload failed, please try again later!',
  succeeded: 'Uploaded successfully!',
  allFailed: 'Uploading files all failed!',
  someFailed: 'Some files failed to upload!',
} as const;
/** Uploads listed per data source in 'Last uploaded list'. */
export const LAST_LIST_SIZE = 10;

export const UPLOAD_STATUSES = ['pending', 'processing', 'valid', 'invalid'] as const;

/** An upload or produced file as the screens read it (spec 000 §3). */
export const uploadViewSchema = z.object({
  _id: z.string(),
  pipelineId: z.string(),
  from: z.enum(['source', 'destination']),
  dataSubKind: z.string(),
  status: z.enum(UPLOAD_STATUSES),
  createdAt: z.string(),
  originalFilename: z.string().nullable(),
  contentType: z.string().nullable(),
  size: z.number(),
  rowCount: z.number().nullable(),
  importId: z.string().nullable(),
  enabled: z.boolean(),
});
export type UploadView = z.infer<typeof uploadViewSchema>;

/** The last uploads of one data source. */
export const lastListSchema = z.object({ dataSubKind: z.string(), data: z.array(uploadViewSchema) });
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

export const statusQuerySchema = z.object({ ids: idListSchema });
export const lastQuerySchema = z.object({ pipelineId: uuidSchema, dataSubKind: z.string().min(1).max(64) });
export const lastAllQuerySchema = z.object({ pipelineId: uuidSchema });
export const outputsQuerySchema = z.object({ pipelineId: uuidSchema });
export const disableBodySchema = z.object({ id: uuidSchema, enabled: z.boolean().default(false) });
export const realtimeBodySchema = z.object({
  pipelineId: uuidSchema,
  dataSubKinds: z.array(z.string().min(1).max(64)).min(1).max(50),
});
export const exportBodySchema = z.object({ uploadIds: z.array(uuidSchema).min(1).max(200) });

/** True when the newest upload of every listed data source is valid (a wizard step is ready). */
export function lastUploadsValid(lists: readonly LastList[], dataSubKinds: readonly string[]): boolean {
  return dataSubKinds.every((kind) => lists.find((l) => l.dataSubKind === kind)?.data[0]?.status === 'valid');
}
