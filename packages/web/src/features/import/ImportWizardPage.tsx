import type { JobCreated } from '@gdb/shared/imports/import.schemas';
import { IMPORT_MESSAGES, missingFieldsMessage, parseDownloadReference } from '@gdb/shared/imports/import-rules';
import { missingRunFields, type PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { canOpen, findRoute } from '@gdb/shared/routes/web-routes';
import { UPLOAD_MESSAGES } from '@gdb/shared/uploads/upload.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Space, Steps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../app/request/request.ts';
import { useSessionUser } from '../../app/session/session.ts';
import { LiveLogView } from '../../ui/LogView.tsx';
import { askConfirmation } from '../../ui/tags/confirmation.ts';
import { useLiveUploads } from '../../ui/useLiveUploads.ts';
import * as calls from './api.ts';
import { ChooseFilesStep } from './ChooseFilesStep.tsx';
import { PipelinePicker } from './PipelinePicker.tsx';
import { PlanStep } from './PlanStep.tsx';
import { ProcessStep } from './ProcessStep.tsx';
import { EMPTY_FILTER, type PipelineFilter } from './pipeline-filter.ts';
import { importKeys } from './queries.ts';
import './import.css';
import {
  CANCEL_QUESTION,
  chooseStepReady,
  DEFAULT_SCHEDULE,
  editingBlockedReason,
  formOfJob,
  latestStatuses,
  missingPropertiesMessage,
  NOW_QUESTION,
  nextStep,
  previousStep,
  realtimeSources,
  runQuestion,
  type ScheduleForm,
  type ScheduleKind,
  STEP_TITLES,
  schedulePayload,
  scheduleValid,
  sourcesReady,
  uploadSources,
} from './wizard-rules.ts';

const JOB_MESSAGES: Record<string, string> = {
  immediate: 'The import has been started.',
  scheduled: 'The import has been scheduled.',
  repeat: 'The repeat job has been saved.',
  sequential: 'The selected pipelines are running one after the other.',
};

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The import dashboard: the five-step wizard of spec 000 §2.6. */
export function ImportWizardPage() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const roles = useSessionUser()?.roles.map((r) => r.name) ?? [];
  const [step, setStep] = useState(0);
  const [filter, setFilter] = useState<PipelineFilter>(EMPTY_FILTER);
  const [pipelineId, setPipelineId] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Map<string, File>>(new Map());
  const [sessionIds, setSessionIds] = useState<string[]>([]);
  const [schedule, setSchedule] = useState<ScheduleForm>(DEFAULT_SCHEDULE);
  const [scheduleFor, setScheduleFor] = useState<string | null>(null);
  const [created, setCreated] = useState<(JobCreated & { kind: string }) | null>(null);
  const [busy, setBusy] = useState(false);

  const pipelines = useQuery({ queryKey: importKeys.userPipelines, queryFn: ({ signal }) => calls.userPipelines(signal) });
  const pipeline: PipelineView | undefined = pipelines.data?.pipelines.find((p) => p._id === pipelineId);
  const last = useQuery({
    queryKey: importKeys.last(pipelineId ?? ''),
    queryFn: ({ signal }) => calls.lastUploads(pipelineId ?? '', signal),
    enabled: !!pipelineId && step >= 1 && step <= 3,
  });
  const current = useQuery({
    queryKey: importKeys.job(pipelineId ?? ''),
    queryFn: ({ signal }) => calls.currentJob(pipelineId ?? '', signal),
    enabled: !!pipelineId && step === 3,
  });
  const countries = useQuery({
    queryKey: importKeys.countries(pipelineId ?? ''),
    queryFn: ({ signal }) => calls.pipelinesOfMaster(pipelineId ?? '', signal),
    enabled: !!pipeline?.isMaster && step === 3,
  });
  const live = useLiveUploads(sessionIds);

  const lists = last.data ?? [];
  const statuses = useMemo(() => latestStatuses(last.data ?? [], live.uploads), [last.data, live.uploads]);
  const kinds = pipeline ? uploadSources(pipeline).map((s) => s.dataSubKind) : [];
  const missing = pipeline ? missingRunFields(pipeline) : [];
  const job = current.data?.job ?? null;
  const blocked = editingBlockedReason(current.data?.imp ?? null, job);

  // An existing job's schedule fills the form once per pipeline (the scheduler waits for it).
  useEffect(() => {
    if (!pipelineId || !current.data || scheduleFor === pipelineId) return;
    setScheduleFor(pipelineId);
    if (current.data.job) setSchedule(formOfJob(current.data.job));
  }, [pipelineId, current.data, scheduleFor]);

  const report = (error: unknown) => {
    console.error(error);
    if (!(error instanceof ApiError && error.shown)) message.error(error instanceof Error ? error.message : String(error));
  };

  const selectPipeline = (p: PipelineView) => {
    if (p._id === pipelineId) return;
    setPipelineId(p._id);
    setChosen(new Map());
    setSessionIds([]);
    setScheduleFor(null);
    setSchedule(DEFAULT_SCHEDULE);
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
      await queryClient.invalidateQueries({ queryKey: importKeys.last(pipelineId ?? '') });
    } catch (error) {
      report(error);
    }
  };

  /** Next on step 2: the chosen files, then the enabled real-time sources; on only if both succeed. */
  const submitUploads = async (p: PipelineView) => {
    const ids: string[] = [];
    if (chosen.size) {
      try {
        ids.push(...(await calls.uploadFiles(p._id, chosen)));
      } catch (error) {
        // The size refusal has its own words; any other failure reads as the widget's.
        const tooLarge = error instanceof ApiError && error.status === 413;
        if (!tooLarge) message.error(UPLOAD_MESSAGES.failed);
        throw error;
      }
      message.success(UPLOAD_MESSAGES.succeeded);
    }
    const realtime = realtimeSources(p).map((s) => s.dataSubKind);
    if (realtime.length) ids.push(...(await calls.fetchRealtime(p._id, realtime)));
    setSessionIds((s) => [...ids, ...s]);
    setChosen(new Map());
    await queryClient.invalidateQueries({ queryKey: importKeys.last(p._id) });
  };

  const afterJob = (answer: JobCreated, kind: string) => {
    setCreated({ ...answer, kind });
    setStep(4);
    void queryClient.invalidateQueries({ queryKey: importKeys.job(pipelineId ?? '') });
    void queryClient.invalidateQueries({ queryKey: importKeys.scheduled });
    const logbook = findRoute('/consult/import');
    if (logbook && canOpen(logbook, roles)) void navigate(`/consult/import?importId=${answer.importId}`);
  };

  const runJob = async (p: PipelineView) => {
    if (missing.length) {
      message.error(missingFieldsMessage(missing));
      return;
    }
    if (!(await askConfirmation(modal, runQuestion(p.name)))) return;
    const body = schedulePayload(schedule, timeZone());
    const answer = job
      ? await calls.editJob({ jobId: job._id, ...body })
      : await calls.createImport({ pipelineId: p._id, ...body });
    afterJob(answer, schedule.kind);
  };

  const runCountries = async (ids: string[]) => {
    if (!pipeline || !(await askConfirmation(modal, runQuestion(pipeline.name)))) return;
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

  const changeKind = async (kind: ScheduleKind) => {
    if (kind === 'immediate' && job && job.jobKind !== 'immediate') {
      if (!(await askConfirmation(modal, NOW_QUESTION))) return;
      try {
        await calls.deleteJob(job._id);
        await queryClient.invalidateQueries({ queryKey: importKeys.job(pipelineId ?? '') });
        await queryClient.invalidateQueries({ queryKey: importKeys.scheduled });
      } catch (error) {
        report(error);
        return;
      }
    }
    setSchedule((s) => ({ ...s, kind }));
  };

  const cancelImport = async () => {
    const imp = current.data?.imp;
    if (!imp || !(await askConfirmation(modal, CANCEL_QUESTION))) return;
    try {
      await calls.deleteImport(imp._id);
      message.success(IMPORT_MESSAGES.cancelled);
      setSchedule(DEFAULT_SCHEDULE);
      await queryClient.invalidateQueries({ queryKey: importKeys.job(pipelineId ?? '') });
      await queryClient.invalidateQueries({ queryKey: importKeys.scheduled });
    } catch (error) {
      report(error);
    }
  };

  const onDownloadReference = (log: { message: string }) => {
    const ref = parseDownloadReference(log.message);
    if (ref) calls.exportUploads([ref.uploadId]).catch((error: unknown) => console.error('export failed', error));
  };

  const ready =
    step === 0
      ? !!pipeline
      : step === 1
        ? !!pipeline && chooseStepReady(kinds, new Set(chosen.keys()), statuses, missing)
        : step === 2
          ? sourcesReady(kinds, statuses)
          : step === 3
            ? !blocked && current.isSuccess && scheduleValid(schedule, roles) && sourcesReady(kinds, statuses)
            : true;

  const next = async () => {
    if (!pipeline && step !== 4) return;
    setBusy(true);
    try {
      if (step === 1 && pipeline) await submitUploads(pipeline);
      if (step === 3 && pipeline) {
        await runJob(pipeline);
        return;
      }
      setStep(nextStep(step));
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
            blocked={blocked}
            loading={!current.isSuccess}
            waitingAt={current.data?.imp?.state === 'pending' ? (current.data.imp.scheduledAt ?? null) : null}
            onCancelImport={() => void cancelImport()}
            schedule={schedule}
            roles={roles}
            onSchedule={setSchedule}
            onKind={(k) => void changeKind(k)}
            uploads={live.uploads}
            lists={lists}
            countries={countries.data ?? []}
            busy={busy}
            onRunCountries={(ids) => void runCountries(ids)}
          />
        )}
        {step === 4 && (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Alert
              type="success"
              showIcon
              message={created ? (JOB_MESSAGES[created.kind] ?? 'The import job has been created.') : 'No import yet.'}
            />
            <LiveLogView selection={created ? { importId: created.importId } : null} onInsert={onDownloadReference} />
          </Space>
        )}
      </div>
      <Space style={{ marginTop: 24 }}>
        <Button disabled={step === 0} onClick={() => setStep(previousStep(step, sessionIds.length > 0))}>
          Prev step
        </Button>
        <Button type="primary" disabled={!ready} loading={busy} onClick={() => void next()}>
          Next step
        </Button>
      </Space>
    </Card>
  );
}
