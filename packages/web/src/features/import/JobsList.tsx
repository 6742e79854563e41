import type { ScheduledJob } from '@gdb/shared/imports/import.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { showFailure } from '../../ground/request/failure.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { FileName } from '../../ui/FileName.tsx';
import { hideMeasureRows, useDomRepair } from '../../ui/useDomRepair.ts';
import { deleteJob, listScheduled } from './api.ts';
import { runText, searchJobs, whenText, whenWords } from './jobs-rules.ts';
import { importKeys } from './queries.ts';
import './import.css';

// Widths of docs/product.md §1.3, but the name's: it takes what the others leave (450 px from a
// window about 1,470 px wide), so that a 1,440 px screen shows the whole table without a scroll
// bar (docs/decisions.md); long names are cut with their whole text in a tooltip.
/** The least the name column keeps: narrower, the table scrolls sideways rather than crush it. */
const NAME_MIN_WIDTH = 300;
const OTHER_WIDTHS = 180 * 3 + 200;
/** The selection column's width, antd's. */
const SELECTION_WIDTH = 32;
/** The When cell: the pattern's cron text, and beneath it the same in words. */
function WhenCell({ job }: { job: ScheduledJob }) {
  const words = whenWords(job);
  return (
    <>
      <span className="gdb-job-when">{whenText(job)}</span>
      {words && (
        <Typography.Text type="secondary" className="gdb-job-when-words">
          {words}
        </Typography.Text>
      )}
    </>
  );
}

const columns: TableColumnsType<ScheduledJob> = [
  {
    title: 'Pipeline name',
    key: 'name',
    render: (_: unknown, j) => <FileName name={j.pipeline?.name ?? 'Pipeline not found'} />,
  },
  { title: 'When', key: 'when', width: 180, render: (_: unknown, j) => <WhenCell job={j} /> },
  { title: 'Next run', key: 'next', width: 180, render: (_: unknown, j) => runText(j.nextImport?.scheduledAt) },
  { title: 'Last run', key: 'last', width: 180, render: (_: unknown, j) => runText(j.lastExecuted) },
  { title: 'Scheduled by', key: 'by', width: 200, render: (_: unknown, j) => <FileName name={j.scheduledBy?.userName ?? '-'} /> },
];

const DELETE_JOBS_QUESTION = 'Do you want to delete the selected jobs?';
const JOBS_DELETED = 'The selected jobs have been deleted.';

export interface JobsListProps {
  /** Hides the title, search, selection and Delete, and the whole list when it is empty. */
  compact?: boolean;
  /** Only this pipeline's jobs. */
  pipelineId?: string;
}

/** Scheduled and repeating jobs (docs/product.md §11.6). */
export function JobsList({ compact = false, pipelineId }: JobsListProps) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [deleting, setDeleting] = useState(false);
  const frame = useDomRepair<HTMLDivElement>(hideMeasureRows);
  const jobs = useQuery({ queryKey: importKeys.scheduled, queryFn: ({ signal }) => listScheduled(signal) });
  const all = [...(jobs.data?.repeatable ?? []), ...(jobs.data?.scheduled ?? [])].filter(
    (j) => !pipelineId || j.pipeline?._id === pipelineId,
  );
  const rows = compact ? all : searchJobs(all, search);

  const remove = async () => {
    if (!(await askConfirmation(modal, DELETE_JOBS_QUESTION))) return;
    setDeleting(true);
    try {
      for (const id of selected) await deleteJob(id);
      setSelected([]);
      message.success(JOBS_DELETED);
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setDeleting(false);
      await queryClient.invalidateQueries({ queryKey: importKeys.scheduled });
    }
  };

  if (compact && jobs.isSuccess && rows.length === 0) return null;
  return (
    <div className="gdb-jobs" ref={frame}>
      {!compact && (
        <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            Jobs
          </Typography.Title>
          <Space>
            <Input.Search
              allowClear
              aria-label="Search jobs"
              placeholder="Search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
            />
            <Button danger disabled={selected.length === 0} loading={deleting} onClick={() => void remove()}>
              Delete
            </Button>
          </Space>
        </Space>
      )}
      <Table<ScheduledJob>
        rowKey="_id"
        size="small"
        loading={jobs.isLoading}
        columns={columns}
        dataSource={rows}
        pagination={false}
        tableLayout="fixed"
        scroll={{ x: NAME_MIN_WIDTH + OTHER_WIDTHS + (compact ? 0 : SELECTION_WIDTH) }}
        rowClassName={(j) => (j.pipeline ? 'gdb-job-row' : 'gdb-job-row gdb-job-missing')}
        {...(compact ? {} : { rowSelection: { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) } })}
      />
    </div>
  );
}

/** Manage jobs (/import/jobs). */
export function ManageJobsPage() {
  return <JobsList />;
}
