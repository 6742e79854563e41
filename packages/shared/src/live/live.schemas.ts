import { z } from 'zod';

/** The socket.io path of the live-data channel, on the API's host and port. */
export const LIVE_PATH = '/data-prep/v1';

/** Collections a client may read or subscribe to. */
export const LIVE_COLLECTIONS = ['uploads', 'logs', 'imports', 'testLogs'] as const;
export type LiveCollection = (typeof LIVE_COLLECTIONS)[number];

export function isLiveCollection(name: string): name is LiveCollection {
  return (LIVE_COLLECTIONS as readonly string[]).includes(name);
}

/** Filter keys each collection accepts (the API's field names). */
export const LIVE_FILTER_KEYS: Record<LiveCollection, readonly string[]> = {
  uploads: ['_id'],
  logs: ['uploadId', 'importId'],
  imports: ['_id', 'pipeline'],
  testLogs: ['runId'],
};

/** Most values one filter key may list. */
export const LIVE_FILTER_MAX_VALUES = 1000;

const filterValue = z.string().min(1).max(100);

/** A filter: each key equals the value, or one of the listed values; keys combine with AND. */
export const liveFilterSchema = z.record(
  z.string().min(1).max(50),
  z.union([filterValue, z.array(filterValue).min(1).max(LIVE_FILTER_MAX_VALUES)]),
);
export type LiveFilter = z.infer<typeof liveFilterSchema>;

/** A projection: fields included (1 or true) only, or excluded (0 or false) only. `_id` is always sent. */
export const liveProjectionSchema = z.record(z.string().min(1).max(100), z.union([z.literal(0), z.literal(1), z.boolean()]));
export type LiveProjection = z.infer<typeof liveProjectionSchema>;

const subscriptionId = z.string().min(1).max(100);

/** The client's `find` and `subscribe` messages. */
export const liveRequestSchema = z.object({
  collectionName: z.string().min(1).max(100).describe('uploads, logs, imports or testLogs.'),
  filter: liveFilterSchema.optional().describe('Field → value or list of values; keys combine with AND.'),
  projection: liveProjectionSchema.optional().describe('Fields to include (1) only, or to exclude (0) only.'),
  subscriptionId: subscriptionId.describe("The client's id for this subscription; answers carry it."),
  token: z.string().min(1).max(4096).optional().describe('The access token; each message is authorised by its own.'),
});
export type LiveRequest = z.infer<typeof liveRequestSchema>;

/** The client's `unsubscribe` message. */
export const liveUnsubscribeSchema = z.object({
  subscriptionId: subscriptionId.describe('The subscription to end.'),
  token: z.string().max(4096).optional().describe('The access token.'),
});
export type LiveUnsubscribe = z.infer<typeof liveUnsubscribeSchema>;

export const LIVE_OPERATIONS = ['insert', 'update', 'delete'] as const;
export type LiveOperation = (typeof LIVE_OPERATIONS)[number];

/** The `data` of a `change` event. */
export interface LiveChange<T = Record<string, unknown>> {
  operationType: LiveOperation;
  documentKey: { _id: string };
  /** The document after the change; null for a delete. */
  fullDocument: T | null;
}

/** What `init`, `change` and `find` carry once decoded from hex MessagePack. */
export interface LiveEnvelope<T> {
  subscriptionId: string;
  data: T;
}

/** The `exception` event: a message, and the subscription it concerns when there is one. */
export interface LiveException {
  message: string;
  subscriptionId?: string;
}

export const LOG_LEVELS = ['error', 'warn', 'info', 'success'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A log line as the API and the live channel show it. */
export const liveLogSchema = z.object({
  _id: z.string().describe('Log line id.'),
  logDate: z.string().describe('When it was written (ISO date-time).'),
  level: z.enum(LOG_LEVELS).describe('error, warn, info or success.'),
  message: z.string().describe('The text.'),
  dataSubKind: z.string().nullable().describe('The data source or sink it concerns; null for the whole run.'),
  uploadId: z.string().nullable().describe('The upload it concerns; null when none.'),
  importId: z.string().nullable().describe('The import it belongs to; null for an upload check.'),
});
export type LiveLog = z.infer<typeof liveLogSchema>;

export const UPLOAD_STATUSES = ['pending', 'processing', 'valid', 'invalid'] as const;

/** An upload as the live channel shows it. */
export const liveUploadSchema = z.object({
  _id: z.string().describe('Upload id.'),
  pipelineId: z.string().describe('Id of the pipeline the file belongs to.'),
  dataSubKind: z.string().describe('The data source or sink it belongs to.'),
  from: z.enum(['source', 'destination']).describe('source: a file that went in; destination: a file an import wrote.'),
  status: z.enum(UPLOAD_STATUSES).describe('pending, processing, then valid or invalid.'),
  originalFilename: z.string().nullable().describe('The file name; null when unknown.'),
  contentType: z.string().nullable().describe('The MIME type; null when unknown.'),
  size: z.number().describe('Size in bytes.'),
  rowCount: z.number().nullable().describe('Rows read or written; null until known.'),
  importId: z.string().nullable().describe('The import that wrote it; null for a source file.'),
  enabled: z.boolean().describe('Whether a run takes it.'),
  createdAt: z.string().describe('When it was stored (ISO date-time).'),
  createdBy: z.string().nullable().describe('Id of the user who uploaded it; null when made by the server.'),
  importedAt: z.string().nullable().describe('When an import that ended done took this source file; null while none has.'),
  importedBy: z.string().nullable().describe('The import that took this source file; null while none has.'),
  sentFrom: z.enum(['wizard', 'testing']).describe('Where a source file was sent from: the import wizard or the testing view.'),
});
export type LiveUpload = z.infer<typeof liveUploadSchema>;

export const IMPORT_STATES = ['pending', 'busy', 'progress', 'sequential', 'done', 'failed', 'aborted'] as const;

/** An import record as the live channel shows it (`pipeline` and `user` are ids). */
export const liveImportSchema = z.object({
  _id: z.string().describe('Import id.'),
  pipeline: z.string().nullable().describe('Pipeline id; null when the pipeline is gone.'),
  job: z.string().nullable().describe('The job that made it; null when gone.'),
  parentImport: z.string().nullable().describe("For a country import of a sequential run: the master's import."),
  scheduledAt: z.string().nullable().describe('When it is due (ISO date-time); null for an immediate one.'),
  startedAt: z.string().nullable().describe('When it started; null while waiting.'),
  endAt: z.string().nullable().describe('When it ended; null until then.'),
  state: z.enum(IMPORT_STATES).describe('pending, busy, progress or sequential, then done, failed or aborted.'),
  success: z.boolean().nullable().describe('True only once it ended done.'),
  progress: z.number().describe('How far the run is, 0 to 100.'),
  user: z.string().nullable().describe('Id of the user who started or scheduled it.'),
  destinations: z.array(z.string()).describe('Names of the data sinks it writes.'),
  createdAt: z.string().describe('When the record was made (ISO date-time).'),
});
export type LiveImport = z.infer<typeof liveImportSchema>;

/**
 * A log line of a component's test run, sent while the run goes on (docs/product.md §15.4): the
 * line the run's answer holds at index `seq`, so the answer and the lines streamed meet without
 * doubles.
 */
export const liveTestLogSchema = z.object({
  _id: z.string().describe('`{runId}:{seq}`.'),
  runId: z.string().describe('The test run, as the editor named it when it started the run.'),
  userId: z.string().describe('The user who started the run.'),
  seq: z.number().int().min(0).describe("The line's index among the run's logs, from 0."),
  level: z.enum(LOG_LEVELS).describe('error, warn, info or success.'),
  message: z.string().describe('The text (cut when too long for the channel: the answer holds it whole).'),
  date: z.string().describe('When it was written (ISO date-time).'),
});
export type LiveTestLog = z.infer<typeof liveTestLogSchema>;

/** The document type of each collection. */
export interface LiveDocuments {
  uploads: LiveUpload;
  logs: LiveLog;
  imports: LiveImport;
  testLogs: LiveTestLog;
}
