import { type SchemaDocument, schemaContentKey } from '@gdb/shared/schemas/schemas.schemas';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/index.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import type { ParsePool } from './parsing/parse-pool.ts';

/** A log line as the uploads module writes it. */
export interface UploadLogLine {
  level: 'error' | 'warn' | 'info' | 'success';
  message: string;
  dataSubKind: string;
  uploadId: string;
}

/**
 * A data model as an upload check uses it: its JSON schema, and the key of this content (its id,
 * save counter and last save) by which the parse workers keep its compiled checks.
 */
export interface UploadDataModel {
  jsonSchema: Record<string, unknown>;
  key: string;
}

/** A stored data model version as an upload check uses it (null when there is none); a draft's save changes its key. */
export function uploadDataModel(doc: SchemaDocument | undefined): UploadDataModel | null {
  return doc ? { jsonSchema: doc.jsonSchema, key: schemaContentKey(doc) } : null;
}

export interface UploadsDeps {
  pipelines: PipelinesService;
  files: FileStore;
  parser: ParsePool;
  /** Appends log lines; inside the transaction `k` when given. */
  log: (lines: UploadLogLine[], k?: Kysely<Database>) => Promise<void>;
  /** A data model (schema version id) with the key of its content, or null when there is none with that id. */
  loadDataModel: (id: string) => Promise<UploadDataModel | null>;
}
