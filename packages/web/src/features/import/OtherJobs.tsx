import type { ScheduledJob } from '@gdb/shared/imports/import.schemas';
import { Alert, Space } from 'antd';
import { runText, whenText } from './jobs-rules.ts';

/** How a job the caller does not edit here reads: what it is, when, and who set it. */
function otherJobText(job: ScheduledJob): string {
  const by = job.scheduledBy?.userName ?? 'someone else';
  const what =
    job.jobKind === 'repeat'
      ? `A repeat job set by ${by} runs this pipeline on '${whenText(job)}' (next run ${runText(job.nextImport?.scheduledAt)}).`
      : `A job set by ${by} runs this pipeline at ${runText(job.nextImport?.scheduledAt)}.`;
  return `${what} It stays as it is; you can run the pipeline now or later beside it.`;
}

/** The pipeline's other active schedules, read-only (a repeat job the role user may not change). */
export function OtherJobs({ jobs }: { jobs: readonly ScheduledJob[] }) {
  if (jobs.length === 0) return null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {jobs.map((j) => (
        <Alert key={j._id} type="info" showIcon className="gdb-wrap" title={otherJobText(j)} />
      ))}
    </Space>
  );
}
