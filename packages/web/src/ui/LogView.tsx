import type { LiveLog, LogLevel } from '@gdb/shared/live/live.schemas';
import { Tag, Typography } from 'antd';
import type { LiveStatus } from '../ground/live/live-types.ts';
import { type LogSelection, useLiveLogs } from './useLiveLogs.ts';
import './LogView.css';

export const NO_LOGS = 'There are no logs.';

export const LOG_VIEW_STATUS: Record<Exclude<LiveStatus, 'live'>, string> = {
  connecting: 'Loading the logs…',
  disconnected: 'Live updates interrupted: reconnecting…',
  error: 'The logs cannot be shown.',
};

const LEVEL_COLORS: Record<LogLevel, string> = { error: 'red', warn: 'orange', info: 'blue', success: 'green' };

const two = (n: number) => String(n).padStart(2, '0');

/** A log date in local time, `YYYY-MM-DD HH:mm:ss`. */
export function formatLogDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

export interface LogViewProps {
  /** In the order to show them (newest first from useLiveLogs). */
  logs: readonly LiveLog[];
  status?: LiveStatus | 'idle';
  /** The server's reason when the subscription was refused or cut. */
  message?: string | undefined;
  emptyText?: string;
  /** Largest height before the list scrolls (default 400 px). */
  maxHeight?: number | string;
  showDataSubKind?: boolean;
  /** Reverses the order given: the oldest line first, as a check reads from start to end. */
  oldestFirst?: boolean;
}

/** Log lines with their date, level and data source; a note while the live feed is not running. */
export function LogView({
  logs,
  status = 'live',
  message,
  emptyText = NO_LOGS,
  maxHeight = 400,
  showDataSubKind = true,
  oldestFirst = false,
}: LogViewProps) {
  const shown = oldestFirst ? [...logs].reverse() : logs;
  const note =
    status === 'live' || status === 'idle' ? undefined : status === 'error' && message ? message : LOG_VIEW_STATUS[status];
  return (
    <div className="gdb-log-view">
      {note && (
        <Typography.Text className="gdb-log-view-status" type={status === 'error' ? 'danger' : 'secondary'} role="status">
          {note}
        </Typography.Text>
      )}
      {logs.length === 0 ? (
        status === 'connecting' ? null : (
          <Typography.Text className="gdb-log-view-empty" type="secondary">
            {emptyText}
          </Typography.Text>
        )
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a list that scrolls takes the focus, so the keyboard can scroll the lines it cuts off
        <ol className="gdb-log-view-lines" style={{ maxHeight }} aria-live="polite" aria-label="Log lines" tabIndex={0}>
          {shown.map((log) => (
            <li key={log._id} className={`gdb-log-line gdb-log-${log.level}`}>
              <span className="gdb-log-date">{formatLogDate(log.logDate)}</span>
              <Tag color={LEVEL_COLORS[log.level]} className={`gdb-log-level gdb-log-level-${log.level}`}>
                {log.level}
              </Tag>
              {showDataSubKind && log.dataSubKind && <Tag>{log.dataSubKind}</Tag>}
              <span className="gdb-log-message">{log.message}</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

export interface LiveLogViewProps extends Omit<LogViewProps, 'logs' | 'status' | 'message'> {
  /** Whose logs: an upload or an import (null: none yet). */
  selection: LogSelection | null | undefined;
  onInsert?: (log: LiveLog) => void;
}

/** The live logs of an upload or an import, newest first; switching selection cancels the previous subscription. */
export function LiveLogView({ selection, onInsert, ...view }: LiveLogViewProps) {
  const { logs, status, message } = useLiveLogs(selection, onInsert ? { onInsert } : {});
  return <LogView logs={logs} status={status} message={message} {...view} />;
}
