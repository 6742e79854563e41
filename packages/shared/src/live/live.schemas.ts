import { z } from 'zod';

/** The socket.io path of the live-data channel, on the API's host and port. */
export const LIVE_PATH = '/data-prep/v1';

/** Collections a client may read or subscribe to. */
export const LIVE_COLLECTIONS = ['uploads', 'logs', 'imports'] as const;
export type LiveCollection = (typeof LIVE_COLLECTIONS)[number];

export function isLiveCollection(name: string): name is LiveCollection {
  return (LIVE_COLLECTIONS as readonly string[]).includes(name);
}

/** Filter keys each collection accepts (the API's field names). */
export const LIVE_FILTER_KEYS: Record<LiveCollection, readonly string[]> = {
  uploads: ['_id'],
  logs: ['uploadId', 'importId'],
  imports: ['_id', 'pipeline'],
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
  collectionName: z.string().min(1).max(100),
  filter: liveFilterSchema.optional(),
  projection: liveProjectionSchema.optional(),
  subscriptionId,
  token: z.string().min(1).max(4096).optional(),
});
export type LiveRequest = z.infer<typeof liveRequestSchema>;

/** The client's `unsubscribe` message. */
export const liveUnsubscribeSchema = z.object({ subscriptionId, token: z.string().max(4096).optional() });
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
  _id: z.string(),
  logDate: z.string(),
  level: z.enum(LOG_LEVELS),
  message: z.string(),
  dataSubKind: z.string().nullable(),
  uploadId: z.string().nullable(),
  importId: z.string().nullable(),
});
export type LiveLog = z.infer<typeof liveLogSchema>;

export const UPLOAD_STATUSES = ['pending', 'processing', 'valid', 'invalid'] as const;

/** An upload as the live channel shows it. */
export const liveUploadSchema = z.object({
  _id: z.string(),
  pipelineId: z.string(),
  dataSubKind: z.string(),
  from: z.enum(['source', 'destination']),
  status: z.enum(UPLOAD_STATUSES),
  originalFilename: z.string().nullable(),
  contentType: z.string().nullable(),
  size: z.number(),
  rowCount: z.number().nullable(),
  importId: z.string().nullable(),
  enabled: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type LiveUpload = z.infer<typeof liveUploadSchema>;

export const IMPORT_STATES = ['pending', 'busy', 'progress', 'sequential', 'done', 'failed', 'aborted'] as const;

/** An import record as the live channel shows it (`pipeline` and `user` are ids). */
export const liveImportSchema = z.object({
  _id: z.string(),
  pipeline: z.string().nullable(),
  job: z.string().nullable(),
  parentImport: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  endAt: z.string().nullable(),
  state: z.enum(IMPORT_STATES),
  success: z.boolean().nullable(),
  progress: z.number(),
  user: z.string().nullable(),
  destinations: z.array(z.string()),
  createdAt: z.string(),
});
export type LiveImport = z.infer<typeof liveImportSchema>;

/** The document type of each collection. */
export interface LiveDocuments {
  uploads: LiveUpload;
  logs: LiveLog;
  imports: LiveImport;
}
