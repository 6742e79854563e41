import { missingFieldsMessage } from '@gdb/shared/imports/import-rules';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { LastList } from '@gdb/shared/uploads/upload.schemas';
import { Alert, Button, Space, Typography } from 'antd';
import { formatLogDate } from '../../ui/LogView.tsx';
import { CountryPipelines } from './CountryPipelines.tsx';
import { JobsList } from './JobsList.tsx';
import { whenText } from './jobs-rules.ts';
import { OtherJobs } from './OtherJobs.tsx';
import { RunUploads } from './RunUploads.tsx';
import { Scheduler } from './Scheduler.tsx';
import type { useWizardJob } from './useWizardJob.ts';
import { jobKindWords } from './wizard-rules.ts';

export interface PlanStepProps {
  pipeline: PipelineView;
  missing: readonly string[];
  /** The pipeline's current import and jobs, and the scheduler's form. */
  plan: ReturnType<typeof useWizardJob>;
  roles: readonly string[];
  lists: readonly LastList[];
  countries: readonly PipelineView[];
  busy: boolean;
  onRunCountries: (ids: string[]) => void;
}

/** Manager and super-admin also see the pipeline's jobs (the jobs list is theirs and admin's). */
const seesJobs = (roles: readonly string[]) => roles.includes('manager') || roles.includes('super-admin');

/** Step 4: the scheduler, the uploads the run takes and, for a master, its country pipelines. */
export function PlanStep(props: PlanStepProps) {
  const { pipeline, missing, plan } = props;
  const { blocked, imp } = plan;
  const waitingAt = imp?.state === 'pending' ? (imp.scheduledAt ?? null) : null;
  // A waiting import of a Later or Repeat job is that job's: its button says so.
  const cancel = plan.canCancel ? (
    <Button size="small" danger={!!blocked} onClick={() => void plan.cancelImport()}>
      {waitingAt ? `Cancel the ${plan.job ? jobKindWords(plan.job) : 'scheduled import'}` : 'Cancel the current import'}
    </Button>
  ) : null;
  const editing = plan.job && plan.job.jobKind !== 'immediate' ? plan.job : null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text strong className="gdb-wrap">
        {pipeline.name}
      </Typography.Text>
      {missing.length > 0 && <Alert type="error" showIcon title={missingFieldsMessage(missing)} />}
      {blocked && <Alert type="error" showIcon title={blocked} action={cancel} />}
      {!blocked && waitingAt && (
        <Alert type="info" showIcon title={`The next import is scheduled at ${formatLogDate(waitingAt)}.`} action={cancel} />
      )}
      <OtherJobs jobs={plan.others} />
      {editing && (
        <Alert
          type="warning"
          showIcon
          className="gdb-wrap"
          title={`This pipeline has a ${jobKindWords(editing)} (${whenText(editing)}). Next step changes that job to the schedule below; choose Now to delete it and run at once.`}
        />
      )}
      <Scheduler
        form={plan.schedule}
        roles={props.roles}
        disabled={!!blocked || !plan.current.isSuccess}
        onChange={plan.setSchedule}
        onKind={(k) => void plan.changeKind(k)}
      />
      {seesJobs(props.roles) && <JobsList compact pipelineId={pipeline._id} />}
      <RunUploads pipeline={pipeline} lists={props.lists} />
      {pipeline.isMaster && (
        <CountryPipelines countries={props.countries} roles={props.roles} busy={props.busy} onRun={props.onRunCountries} />
      )}
    </Space>
  );
}
