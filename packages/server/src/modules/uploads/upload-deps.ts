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

export interface UploadsDeps {
  pipelines: PipelinesService;
  files: FileStore;
  parser: ParsePool;
  log: (lines: UploadLogLine[]) => Promise<void>;
  /** The JSON schema of a data model (schema version id), or null when there is none with that id. */
  loadDataModel: (id: string) => Promise<Record<string, unknown> | null>;
}
