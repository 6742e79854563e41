import { hasAnyRole } from '@gdb/shared/auth/roles';
import { missingRunFields, type PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { canOpen, findRoute } from '@gdb/shared/routes/web-routes';
import { UPLOAD_MESSAGES } from '@gdb/shared/uploads/upload.schemas';
import { useQuery } from '@tanstack/react-query';
import { App, Card, Steps, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useUserPipelines } from '../../ground/calls/pipelines.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { useSessionUser } from '../../ground/session/session.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { EMPTY_FILTER, type PipelineFilter } from '../../ui/pipelines/pipeline-filter.ts';
import { uploadSources } from '../../ui/uploads/sources.ts';
import * as calls from './api.ts';
import { importKeys } from './queries.ts';
import { STORED_TOAST_KEY } from './useUploadVerdicts.ts';
import { useWizardJob } from './useWizardJob.ts';
import { useWizardRun } from './useWizardRun.ts';
import { useWizardUploads } from './useWizardUploads.ts';
import { WizardNav, WizardStepPanel } from './WizardStepPanel.tsx';
import { nextBlockedReason, nextStep, previousStep, STEP_TITLES } from './wizard-rules.ts';
import './import.css';

/** A master pipeline's countries, for step 4. */
function useCountries(pipeline: PipelineView | undefined, active: boolean) {
  return useQuery({
    queryKey: importKeys.countries(pipeline?._id ?? ''),
    queryFn: ({ signal }) => calls.pipelinesOfMaster(pipeline?._id ?? '', signal),
    enabled: !!pipeline?.isMaster && active,
  });
}

/** Why Next is disabled on this step, if it is. */
function blockedReason(
  step: number,
  pipeline: PipelineView | undefined,
  roles: readonly string[],
  uploads: ReturnType<typeof useWizardUploads>,
  plan: ReturnType<typeof useWizardJob>,
) {
  return nextBlockedReason({
    step,
    pipeline,
    missing: pipeline ? missingRunFields(pipeline) : [],
    kinds: pipeline ? uploadSources(pipeline).map((s) => s.dataSubKind) : [],
    chosen: new Set(uploads.chosen.keys()),
    statuses: uploads.statuses,
    blocked: plan.blocked,
    jobLoaded: plan.current.isSuccess,
    schedule: plan.schedule,
    roles,
  });
}

/** The import dashboard: the five-step wizard of docs/product.md §10. */
export function ImportWizardPage() {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const roles = useSessionUser()?.roles.map((r) => r.name) ?? [];
  const [step, setStep] = useState(0);
  const [filter, setFilter] = useState<PipelineFilter>(EMPTY_FILTER);
  const [pipelineId, setPipelineId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const logbook = findRoute('/consult/import');
  const seesLogbook = !!logbook && canOpen(logbook, roles);

  const report = (error: unknown) => {
    console.error(error);
    showFailure(error, message.error);
  };

  const pipelines = useUserPipelines();
  const pipeline: PipelineView | undefined = pipelines.data?.pipelines.find((p) => p._id === pipelineId);
  const uploads = useWizardUploads(pipelineId, step, report);
  const plan = useWizardJob(pipelineId, step === 3, roles, report);
  const countries = useCountries(pipeline, step === 3);
  const missing = pipeline ? missingRunFields(pipeline) : [];

  // The new step's heading takes the focus, so keyboard and screen-reader users land on what changed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each step change only
  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [step]);

  /** Goes to a step: the earlier step's toasts close as the new panel opens. */
  const go = (to: number) => {
    message.destroy();
    moved.current = true;
    setStep(to);
  };

  const ask = (question: string) => {
    message.destroy();
    return askConfirmation(modal, question);
  };
  const followsToLogbook = seesLogbook && hasAnyRole(roles, ['manager', 'super-admin']);
  const run = useWizardRun({ pipeline, plan, missing, followsToLogbook, go, ask, report, setBusy });

  const selectPipeline = (p: PipelineView) => {
    if (p._id === pipelineId) return;
    setPipelineId(p._id);
    uploads.clear();
    plan.reset();
    run.forget();
  };

  const reason = blockedReason(step, pipeline, roles, uploads, plan);

  const next = async () => {
    if (!pipeline && step !== 4) return;
    setBusy(true);
    try {
      if (step === 3 && pipeline) {
        await run.runJob(pipeline);
        return;
      }
      const toast = step === 1 && pipeline ? await uploads.submit(pipeline) : null;
      go(nextStep(step));
      if (toast === UPLOAD_MESSAGES.succeeded) message.success({ content: toast, key: STORED_TOAST_KEY });
      else if (toast) message.warning(toast);
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Upload new file">
      <Steps current={step} items={STEP_TITLES.map((title) => ({ title }))} style={{ marginBottom: 24 }} />
      <div className="gdb-wizard-step" data-step={step}>
        <Typography.Title level={2} className="gdb-step-title" tabIndex={-1} ref={heading}>
          Step {step + 1} of {STEP_TITLES.length}: {STEP_TITLES[step]}
        </Typography.Title>
        <WizardStepPanel
          step={step}
          roles={roles}
          pipelines={pipelines}
          filter={filter}
          onFilter={setFilter}
          pipelineId={pipelineId}
          onSelect={selectPipeline}
          pipeline={pipeline}
          missing={missing}
          uploads={uploads}
          plan={plan}
          countries={countries.data ?? []}
          busy={busy}
          onRunCountries={(ids) => void run.runCountries(ids)}
          created={run.created}
          seesLogbook={seesLogbook}
        />
      </div>
      <WizardNav
        step={step}
        reason={reason}
        busy={busy}
        onPrev={() => go(previousStep(step, uploads.sessionIds.length > 0))}
        onNext={() => void next()}
      />
    </Card>
  );
}
