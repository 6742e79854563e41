import type { JobCreated } from '@gdb/shared/imports/import.schemas';
import type { PipelineView, UserPipelines } from '@gdb/shared/pipelines/pipeline.schemas';
import { Button, Space, Spin, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useId } from 'react';
import { PipelinePicker } from '../../ui/pipelines/PipelinePicker.tsx';
import type { PipelineFilter } from '../../ui/pipelines/pipeline-filter.ts';
import type { useWizardJob } from './useWizardJob.ts';
import { logbookPath } from './useWizardRun.ts';
import type { useWizardUploads } from './useWizardUploads.ts';
import { missingPropertiesMessage, STEP_TITLES } from './wizard-rules.ts';

// Each later step loads when it is reached: the first screen ships only the pipeline picker.
const ChooseFilesStep = lazy(() => import('./ChooseFilesStep.tsx').then((m) => ({ default: m.ChooseFilesStep })));
const ProcessStep = lazy(() => import('./ProcessStep.tsx').then((m) => ({ default: m.ProcessStep })));
const PlanStep = lazy(() => import('./PlanStep.tsx').then((m) => ({ default: m.PlanStep })));
const ImportDetails = lazy(() => import('./ImportDetails.tsx').then((m) => ({ default: m.ImportDetails })));

export interface WizardStepPanelProps {
  step: number;
  roles: readonly string[];
  pipelines: { data: UserPipelines | undefined; isLoading: boolean };
  filter: PipelineFilter;
  onFilter: (filter: PipelineFilter) => void;
  pipelineId: string | null;
  onSelect: (p: PipelineView) => void;
  pipeline: PipelineView | undefined;
  missing: readonly string[];
  /** The files chosen, the uploads sent and the pipeline's last lists. */
  uploads: ReturnType<typeof useWizardUploads>;
  plan: ReturnType<typeof useWizardJob>;
  countries: readonly PipelineView[];
  busy: boolean;
  onRunCountries: (ids: string[]) => void;
  created: (JobCreated & { kind: string }) | null;
  seesLogbook: boolean;
}

/** What the wizard's current step shows below its heading. */
export function WizardStepPanel(props: WizardStepPanelProps) {
  const { step, pipeline, missing, created } = props;
  const { lists } = props.uploads;
  return (
    <Suspense fallback={<Spin />}>
      {step === 0 && (
        <Typography.Paragraph type="secondary" className="gdb-step-help">
          Pick the pipeline to import into: narrow the list by brand, locale, product line and datakind, then choose it.
        </Typography.Paragraph>
      )}
      {step === 0 && (
        <PipelinePicker
          data={props.pipelines.data}
          loading={props.pipelines.isLoading}
          roles={props.roles}
          filter={props.filter}
          onFilter={props.onFilter}
          selectedId={props.pipelineId}
          onSelect={props.onSelect}
        />
      )}
      {step === 1 && pipeline && (
        <ChooseFilesStep
          pipeline={pipeline}
          lists={lists}
          chosen={props.uploads.chosen}
          onChoose={props.uploads.choose}
          onToggle={(id, on) => void props.uploads.toggle(id, on)}
          missingMessage={missing.length ? missingPropertiesMessage(pipeline, missing) : null}
        />
      )}
      {step === 2 && pipeline && <ProcessStep pipeline={pipeline} session={props.uploads.session} lists={lists} />}
      {step === 3 && pipeline && (
        <PlanStep
          pipeline={pipeline}
          missing={missing}
          plan={props.plan}
          roles={props.roles}
          lists={lists}
          countries={props.countries}
          busy={props.busy}
          onRunCountries={props.onRunCountries}
        />
      )}
      {step === 4 && (
        <ImportDetails
          created={created}
          logbookLink={created && props.seesLogbook ? logbookPath(created.importId, created.kind) : null}
        />
      )}
    </Suspense>
  );
}

export interface WizardNavProps {
  step: number;
  /** Why Next is disabled, if it is. */
  reason: string | null;
  busy: boolean;
  onPrev: () => void;
  onNext: () => void;
}

/** Prev and Next under the steps, with the reason Next is disabled said beside it. */
export function WizardNav({ step, reason, busy, onPrev, onNext }: WizardNavProps) {
  const reasonId = useId();
  return (
    <Space style={{ marginTop: 24 }} wrap>
      <Button disabled={step === 0} onClick={onPrev}>
        Prev step
      </Button>
      <Tooltip title={reason}>
        <Button
          type="primary"
          disabled={!!reason}
          loading={busy}
          onClick={onNext}
          {...(reason ? { 'aria-describedby': reasonId } : {})}
        >
          {step === STEP_TITLES.length - 1 ? 'Next step: start over' : 'Next step'}
        </Button>
      </Tooltip>
      {reason && (
        <Typography.Text type="secondary" id={reasonId} className="gdb-next-reason">
          {reason}
        </Typography.Text>
      )}
    </Space>
  );
}
