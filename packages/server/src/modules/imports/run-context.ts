import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import type { Database } from '../../platform/db/tables.ts';
import type { FileStore } from '../../platform/files/file-store.ts';
import type { DatastoreService } from '../datastore/datastore.service.ts';
import type { LogLine, LogsService } from '../logs/logs.service.ts';
import type { PipelinesService } from '../pipelines/pipelines.service.ts';
import type { UploadsService } from '../uploads/uploads.service.ts';
import type { ComponentRunner } from './component-runner.ts';
import type { JobQueue } from './job-queue.ts';

/** Runs of one import (the first and the restarts on error). */
export const MAX_ATTEMPTS = 3;

/** Why a run was stopped from outside: a stop asked for, this process stopping, or its lease taken. */
export type StopReason = 'stop' | 'shutdown' | 'lost';

/** How one run ended. */
export type Outcome = 'done' | 'failed' | 'aborted' | 'restarted' | 'lost' | 'gone' | 'busy';

export interface RunnerDeps {
  ctx: AppContext;
  pipelines: PipelinesService;
  uploads: UploadsService;
  logs: LogsService;
  datastore: DatastoreService;
  files: FileStore;
  queue: JobQueue;
  /** The component runtime, once there is one. */
  components: () => ComponentRunner | undefined;
}

/** What every step of a run of this process shares: the services, the database and the worker's leases. */
export interface RunScope {
  deps: RunnerDeps;
  db: Kysely<Database>;
  workerId: string;
  /** Imports whose lease this process holds. */
  leased: Set<string>;
}

/** A runner of this process: the steps' scope, and the runs it holds now, by import id (to stop them). */
export interface Runner extends RunScope {
  local: Map<string, AbortController>;
}

type LogLevel = LogLine['level'];

/** One line of an import's logs: its level, its text and the data source or sink it concerns. */
export type SaidLine = [level: LogLevel, message: string, dataSubKind?: string | null];

/** Appends one line to the import's logs; `all`, when there, appends several in one write, in order. */
export interface Say {
  (...line: SaidLine): Promise<void>;
  all?: (lines: readonly SaidLine[]) => Promise<void>;
}

/** A line of an import's logs. */
export function logLine(importId: string, level: LogLevel, message: string, dataSubKind?: string | null): LogLine {
  return { level, message, importId, dataSubKind: dataSubKind ?? null };
}

/** Writes lines to one import's logs as they happen. */
export function sayTo(logs: Pick<LogsService, 'append'>, importId: string): Say {
  const say: Say = (level, message, dataSubKind) => logs.append(logLine(importId, level, message, dataSubKind));
  say.all = (lines) => logs.append(lines.map((l) => logLine(importId, ...l)));
  return say;
}

/** Appends these lines in order: in one write when `say` can, else one after the other. */
export async function sayAll(say: Say, lines: readonly SaidLine[]): Promise<void> {
  if (say.all) return say.all(lines);
  for (const line of lines) await say(...line);
}
