import type { ImportRecord } from '@gdb/shared/imports/import.schemas';
import { Button, type TableColumnsType, Typography } from 'antd';
import { dateCell, stoppable, successWords } from './logbook-rules.ts';

/**
 * The logbook's columns: the pipeline's name opens the details, Stop (given `onStop`, not on a plain
 * user's logbook) aborts a running or waiting import.
 */
export function logbookColumns(
  onOpen: (id: string) => void,
  onStop: ((id: string) => void) | null,
): TableColumnsType<ImportRecord> {
  const columns: TableColumnsType<ImportRecord> = [
    {
      title: 'Pipeline',
      key: 'pipeline',
      // The keyboard's way to the details: the row takes a click, this button Enter or Space.
      render: (_: unknown, r) => (
        <Button
          type="link"
          size="small"
          className="gdb-row-open"
          aria-label={`Details of ${r.pipelineName ?? 'the import'} ${dateCell(r.startedAt ?? r.scheduledAt)}`}
          onClick={(e) => {
            e.stopPropagation();
            onOpen(r._id);
          }}
        >
          {r.pipelineName ?? '-'}
        </Button>
      ),
    },
    { title: 'scheduled at', dataIndex: 'scheduledAt', render: dateCell },
    { title: 'Started at', dataIndex: 'startedAt', render: dateCell },
    { title: 'End at', dataIndex: 'endAt', render: dateCell },
    { title: 'Destination', dataIndex: 'destinations', render: (d: string[]) => d.join(', ') },
    { title: 'State', dataIndex: 'state' },
    {
      title: 'Success',
      key: 'success',
      render: (_: unknown, r) => (
        <span className="gdb-logbook-success">
          {String(r.success)} <Typography.Text type="secondary">({successWords(r)})</Typography.Text>
        </span>
      ),
    },
    { title: 'User', dataIndex: 'userFirstName', render: (v: string | null) => v || '-' },
  ];
  if (!onStop) return columns;
  return [
    ...columns,
    {
      title: 'Stop',
      key: 'stop',
      render: (_: unknown, r) =>
        stoppable(r.state) ? (
          <Button
            size="small"
            danger
            onClick={(e) => {
              e.stopPropagation();
              onStop(r._id);
            }}
          >
            Stop
          </Button>
        ) : null,
    },
  ];
}
