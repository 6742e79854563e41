import { missingFieldsMessage } from '@gdb/shared/imports/import-rules';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import type { LastList } from '@gdb/shared/uploads/upload.schemas';
import { Alert, Button, Space, Typography } from 'antd';
import { formatLogDate } from '../../ui/LogView.tsx';
import { CountryPipelines } from './CountryPipelines.tsx';
import { JobsList } from './JobsList.tsx';
import { ProcessStep, type UploadRow } from './ProcessStep.tsx';
import { Scheduler } from './Scheduler.tsx';
import type { ScheduleForm, ScheduleKind } from './wizard-rules.ts';

export interface PlanStepProps {
  pipeline: PipelineView;
  missing: readonly string[];
  /** Why the schedule cannot be edited now, or null. */
  blocked: string | null;
  /** The pipeline's current job is still loading: the scheduler waits, so the job cannot overwrite a choice. */
  loading: boolean;
  /** When the pipeline's next import waits for a later time: that time, else null. */
  waitingAt: string | null;
  onCancelImport: () => void;
  schedule: ScheduleForm;
  roles: readonly string[];
  onSchedule: (form: ScheduleForm) => void;
  onKind: (kind: ScheduleKind) => void;
  uploads: readonly UploadRow[];
  lists: readonly LastList[];
  countries: readonly PipelineView[];
  busy: boolean;
  onRunCountries: (ids: string[]) => void;
}

/** Manager and super-admin also see the pipeline's jobs (the jobs list is theirs and admin's). */
const seesJobs = (roles: readonly string[]) => roles.includes('manager') || roles.includes('super-admin');

/** Step 4: the scheduler, the last uploads and, for a master, its country pipelines. */
export function PlanStep(props: PlanStepProps) {
  const { pipeline, missing, blocked } = props;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Title level={5}>{pipeline.name}</Typography.Title>
      {missing.length > 0 && <Alert type="error" showIcon message={missingFieldsMessage(missing)} />}
      {blocked && (
        <Alert
          type="error"
          showIcon
          message={blocked}
          action={
            <Button size="small" danger onClick={props.onCancelImport}>
              Cancel the current import
            </Button>
          }
        />
      )}
      {!blocked && props.waitingAt && (
        <Alert
          type="info"
          showIcon
          message={`The next import is scheduled at ${formatLogDate(props.waitingAt)}.`}
          action={
            <Button size="small" onClick={props.onCancelImport}>
              Cancel the current import
            </Button>
          }
        />
      )}
      <Scheduler
        form={props.schedule}
        roles={props.roles}
        disabled={!!blocked || props.loading}
        onChange={props.onSchedule}
        onKind={props.onKind}
      />
      {seesJobs(props.roles) && <JobsList compact pipelineId={pipeline._id} />}
      <ProcessStep pipeline={pipeline} session={props.uploads} lists={props.lists} />
      {pipeline.isMaster && (
        <CountryPipelines countries={props.countries} roles={props.roles} busy={props.busy} onRun={props.onRunCountries} />
      )}
    </Space>
  );
}
