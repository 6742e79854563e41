import type { JobCreated } from '@gdb/shared/imports/import.schemas';
import { missingFieldsMessage } from '@gdb/shared/imports/import-rules';
import { missingRunFields, type PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { canOpen, findRoute } from '@gdb/shared/routes/web-routes';
import { UPLOAD_MESSAGES } from '@gdb/shared/uploads/upload.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Space, Spin, Steps, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useUserPipelines } from '../../ground/calls/pipelines.ts';
import { uploadFiles, uploadKeys, useLastUploads } from '../../ground/calls/uploads.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { ApiError } from '../../ground/request/request.ts';
import { useSessionUser } from '../../ground/session/session.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { PipelinePicker } from '../../ui/pipelines/PipelinePicker.tsx';
import { EMPTY_FILTER, type PipelineFilter } from '../../ui/pipelines/pipeline-filter.ts';
import { useLiveUploads } from '../../ui/useLiveUploads.ts';
import * as calls from './api.ts';
import { importKeys } from './queries.ts';
import { STORED_TOAST_KEY, useUploadVerdicts } from './useUploadVerdicts.ts';
import { useWizardJob } from './useWizardJob.ts';
import './import.css';
import { uploadSources } from '../../ui/uploads/sources.ts';
import {
  latestStatuses,
  missingPropertiesMessage,
  nextBlockedReason,
  nextStep,
  previousStep,
  realtimeSources,
  runQuestion,
  STEP_TITLES,
  schedulePayload,
  withLiveUploads,
} from './wizard-rules.ts';

// Each later step loads when it is reached: the first screen ships only the pipeline picker.
const ChooseFilesStep = lazy(() => import('./ChooseFilesStep.tsx').then((m) => ({ default: m.ChooseFilesStep })));
const ProcessStep = lazy(() => import('./ProcessStep.tsx').then((m) => ({ default: m.ProcessStep })));
const PlanStep = lazy(() => import('./PlanStep.tsx').then((m) => ({ default: m.PlanStep })));
const ImportDetails = lazy(() => import('./ImportDetails.tsx').then((m) => ({ default: m.ImportDetails })));

const isSchedule = (kind: string) => kind === 'scheduled' || kind === 'repeat';
/** Where the logbook shows an import: among the future ones for a Later or Repeat job. */
const logbookPath = (importId: string, kind: string) =>
  `/consult/import?importId=${importId}${isSchedule(kind) ? '&time=future' : ''}`;

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The toast that says how many of the chosen files the server stored (docs/product.md §9.6). */
function storedMessage(chosen: number, stored: number): string {
  if (stored === 0) return UPLOAD_MESSAGES.allFailed;
  return stored < chosen ? UPLOAD_MESSAGES.someFailed : UPLOAD_MESSAGES.succeeded;
}

/** The import dashboard: the five-step wizard of docs/product.md §10. */
export function ImportWizardPage() {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const roles = useSessionUser()?.roles.map((r) => r.name) ?? [];
  const [step, setStep] = useState(0);
  const [filter, setFilter] = useState<PipelineFilter>(EMPTY_FILTER);
  const [pipelineId, setPipelineId] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Map<string, File>>(new Map());
  const [sessionIds, setSessionIds] = useState<string[]>([]);
  const [created, setCreated] = useState<(JobCreated & { kind: string }) | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const reasonId = useId();
  const logbook = findRoute('/consult/import');
  const seesLogbook = !!logbook && canOpen(logbook, roles);

  const report = (error: unknown) => {
    console.error(error);
    showFailure(error, message.error);
  };

  const pipelines = useUserPipelines();
  const pipeline: PipelineView | undefined = pipelines.data?.pipelines.find((p) => p._id === pipelineId);
  const last = useLastUploads(pipelineId, step >= 1 && step <= 3);
  const plan = useWizardJob(pipelineId, step === 3, roles, report);
  const countries = useQuery({
    queryKey: importKeys.countries(pipelineId ?? ''),
    queryFn: ({ signal }) => calls.pipelinesOfMaster(pipelineId ?? '', signal),
    enabled: !!pipeline?.isMaster && step === 3,
  });
  const live = useLiveUploads(sessionIds);
  useUploadVerdicts(live.uploads);

  // The live statuses of this session's uploads win over the last list loaded before their checks ended.
  const lists = useMemo(() => withLiveUploads(last.data ?? [], live.uploads), [last.data, live.uploads]);
  const statuses = useMemo(() => latestStatuses(last.data ?? [], live.uploads), [last.data, live.uploads]);
  const kinds = pipeline ? uploadSources(pipeline).map((s) => s.dataSubKind) : [];
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

  const selectPipeline = (p: PipelineView) => {
    if (p._id === pipelineId) return;
    setPipelineId(p._id);
    setChosen(new Map());
    setSessionIds([]);
    plan.reset();
    setCreated(null);
  };

  const choose = (kind: string, file: File | null) =>
    setChosen((m) => {
      const next = new Map(m);
      if (file) next.set(kind, file);
      else next.delete(kind);
      return next;
    });

  const toggle = async (id: string, enabled: boolean) => {
    try {
      await calls.setUploadEnabled(id, enabled);
      await queryClient.invalidateQueries({ queryKey: uploadKeys.last(pipelineId ?? '') });
    } catch (error) {
      report(error);
    }
  };

  /** Next on step 2: the chosen files, then the enabled real-time sources; on only if both succeed. Answers the toast to show. */
  const submitUploads = async (p: PipelineView): Promise<string | null> => {
    const ids: string[] = [];
    let toast: string | null = null;
    if (chosen.size) {
      try {
        ids.push(...(await uploadFiles(p._id, chosen, 'wizard')));
      } catch (error) {
        // The size refusal has its own words; any other failure reads as the widget's.
        const tooLarge = error instanceof ApiError && error.status === 413;
        if (!tooLarge) message.error(UPLOAD_MESSAGES.failed);
        throw error;
      }
      toast = storedMessage(chosen.size, ids.length);
      if (ids.length === 0) throw new Error(toast);
    }
    const realtime = realtimeSources(p).map((s) => s.dataSubKind);
    if (realtime.length) ids.push(...(await calls.fetchRealtime(p._id, realtime)));
    setSessionIds((s) => [...ids, ...s]);
    setChosen(new Map());
    await queryClient.invalidateQueries({ queryKey: uploadKeys.last(p._id) });
    return toast;
  };

  /**
   * After a job: step 5 follows it. A run now opens in the logbook for those who may read it; a
   * Later or Repeat job stays in step 5 for everyone, which links to it among the logbook's future imports.
   */
  const afterJob = (answer: JobCreated, kind: string) => {
    setCreated({ ...answer, kind });
    go(4);
    void plan.refresh();
    if (!seesLogbook || isSchedule(kind)) return;
    void navigate(logbookPath(answer.importId, kind));
  };

  const runJob = async (p: PipelineView) => {
    if (missing.length) {
      message.error(missingFieldsMessage(missing));
      return;
    }
    if (!(await ask(runQuestion(p.name, plan.schedule, plan.job)))) return;
    const body = schedulePayload(plan.schedule, timeZone());
    const answer = plan.job
      ? await calls.editJob({ jobId: plan.job._id, ...body })
      : await calls.createImport({ pipelineId: p._id, ...body });
    afterJob(answer, plan.schedule.kind);
  };

  const runCountries = async (ids: string[]) => {
    if (!pipeline || !(await ask(runQuestion(pipeline.name)))) return;
    setBusy(true);
    try {
      const answer = await calls.createImport({
        pipelineId: pipeline._id,
        kind: 'sequential',
        listPipelines: ids,
        restartOnError: true,
        repeatPattern: '',
        timezone: timeZone(),
      });
      afterJob(answer, 'sequential');
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  };

  const reason = nextBlockedReason({
    step,
    pipeline,
    missing,
    kinds,
    chosen: new Set(chosen.keys()),
    statuses,
    blocked: plan.blocked,
    jobLoaded: plan.current.isSuccess,
    schedule: plan.schedule,
    roles,
  });

  const next = async () => {
    if (!pipeline && step !== 4) return;
    setBusy(true);
    try {
      if (step === 3 && pipeline) {
        await runJob(pipeline);
        return;
      }
      const toast = step === 1 && pipeline ? await submitUploads(pipeline) : null;
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
        <Suspense fallback={<Spin />}>
          {step === 0 && (
            <Typography.Paragraph type="secondary" className="gdb-step-help">
              Pick the pipeline to import into: narrow the list by brand, locale, product line and datakind, then choose it.
            </Typography.Paragraph>
          )}
          {step === 0 && (
            <PipelinePicker
              data={pipelines.data}
              loading={pipelines.isLoading}
              roles={roles}
              filter={filter}
              onFilter={setFilter}
              selectedId={pipelineId}
              onSelect={selectPipeline}
            />
          )}
          {step === 1 && pipeline && (
            <ChooseFilesStep
              pipeline={pipeline}
              lists={lists}
              chosen={chosen}
              onChoose={choose}
              onToggle={(id, on) => void toggle(id, on)}
              missingMessage={missing.length ? missingPropertiesMessage(pipeline, missing) : null}
            />
          )}
          {step === 2 && pipeline && <ProcessStep pipeline={pipeline} session={live.uploads} lists={lists} />}
          {step === 3 && pipeline && (
            <PlanStep
              pipeline={pipeline}
              missing={missing}
              plan={plan}
              roles={roles}
              lists={lists}
              countries={countries.data ?? []}
              busy={busy}
              onRunCountries={(ids) => void runCountries(ids)}
            />
          )}
          {step === 4 && (
            <ImportDetails
              created={created}
              logbookLink={created && seesLogbook ? logbookPath(created.importId, created.kind) : null}
            />
          )}
        </Suspense>
      </div>
      <Space style={{ marginTop: 24 }} wrap>
        <Button disabled={step === 0} onClick={() => go(previousStep(step, sessionIds.length > 0))}>
          Prev step
        </Button>
        <Tooltip title={reason}>
          <Button
            type="primary"
            disabled={!!reason}
            loading={busy}
            onClick={() => void next()}
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
    </Card>
  );
}
