import type { LiveLog, LogLevel } from '@gdb/shared/live/live.schemas';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import { isoOf } from '../../platform/dates.ts';
import type { Database } from '../../platform/db/index.ts';
import { type LogSelection, logsRepo } from './logs.repo.ts';

/** One line to append to the logs of an upload and/or an import. */
export interface LogLine {
  level: LogLevel;
  message: string;
  dataSubKind?: string | null;
  uploadId?: string | null;
  importId?: string | null;
}

/** Longest message kept; longer ones are cut (user code may log anything). */
const LOG_MESSAGE_MAX = 10_000;
/** Most lines one read answers: the newest ones. */
const LOG_READ_MAX = 5_000;

/** A log row as read from the table or from a change notification (dates as Date or ISO text). */
export interface LogRowLike {
  id: number | string;
  log_date: Date | string;
  level: LogLevel;
  message: string;
  data_sub_kind: string | null;
  upload_id: string | null;
  import_id: string | null;
}

/** A log row in the API's words. */
export function toLiveLog(row: LogRowLike): LiveLog {
  return {
    _id: String(row.id),
    logDate: isoOf(row.log_date),
    level: row.level,
    message: row.message,
    dataSubKind: row.data_sub_kind,
    uploadId: row.upload_id,
    importId: row.import_id,
  };
}

function cut(message: string): string {
  return message.length > LOG_MESSAGE_MAX ? `${message.slice(0, LOG_MESSAGE_MAX - 1)}…` : message;
}

function isLineList(v: LogLine | readonly LogLine[]): v is readonly LogLine[] {
  return Array.isArray(v);
}

export function logsService(ctx: AppContext) {
  const read = async (selection: LogSelection, limit: number) => {
    const rows = await logsRepo(ctx.db.kysely).newest(selection, Math.min(limit, LOG_READ_MAX));
    return rows.reverse().map(toLiveLog);
  };
  return {
    /** Appends log lines in order; pass a transaction handle to write them inside that transaction. */
    async append(lines: LogLine | readonly LogLine[], k: Kysely<Database> = ctx.db.kysely): Promise<void> {
      const list = isLineList(lines) ? lines : [lines];
      if (list.length === 0) return;
      await logsRepo(k).insert(
        list.map((l) => ({
          level: l.level,
          message: cut(l.message),
          data_sub_kind: l.dataSubKind ?? null,
          upload_id: l.uploadId ?? null,
          import_id: l.importId ?? null,
        })),
      );
    },

    /** The log lines of these uploads, oldest first (the newest LOG_READ_MAX at most). */
    forUploads: (uploadIds: readonly string[], limit = LOG_READ_MAX) =>
      uploadIds.length === 0 ? Promise.resolve([]) : read({ uploadIds }, limit),

    /** The log lines of one import, oldest first (the newest LOG_READ_MAX at most). */
    forImport: (importId: string, limit = LOG_READ_MAX) => read({ importIds: [importId] }, limit),

    /** The log lines matching a selection, oldest first (the newest `limit` of them). */
    find: (selection: LogSelection, limit = LOG_READ_MAX) => read(selection, limit),

    /** Log lines by id, oldest first. */
    byIds: async (ids: readonly number[]) => (await logsRepo(ctx.db.kysely).byIds(ids)).map(toLiveLog),
  };
}

export type LogsService = ReturnType<typeof logsService>;
