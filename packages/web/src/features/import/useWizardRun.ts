import type { JobCreated } from '@gdb/shared/imports/import.schemas';
import { missingFieldsMessage } from '@gdb/shared/imports/import-rules';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { App } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import * as calls from './api.ts';
import type { useWizardJob } from './useWizardJob.ts';
import { runQuestion, schedulePayload } from './wizard-rules.ts';

const isSchedule = (kind: string) => kind === 'scheduled' || kind === 'repeat';
/** Where the logbook shows an import: among the future ones for a Later or Repeat job. */
export const logbookPath = (importId: string, kind: string) =>
  `/consult/import?importId=${importId}${isSchedule(kind) ? '&time=future' : ''}`;

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export interface WizardRunOptions {
  pipeline: PipelineView | undefined;
  plan: ReturnType<typeof useWizardJob>;
  missing: readonly string[];
  /** Whether a run now opens in the logbook: for managers and super-admins (a plain user stays in step 5 with its logs). */
  followsToLogbook: boolean;
  /** Goes to a step of the wizard. */
  go: (step: number) => void;
  ask: (question: string) => Promise<boolean>;
  report: (e: unknown) => void;
  setBusy: (busy: boolean) => void;
}

/** Step 4's runs: the pipeline's job (now, later or repeated), or its countries one after another; step 5 shows what was created. */
export function useWizardRun({ pipeline, plan, missing, followsToLogbook, go, ask, report, setBusy }: WizardRunOptions) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [created, setCreated] = useState<(JobCreated & { kind: string }) | null>(null);

  /**
   * After a job: step 5 follows it. A run now opens in the logbook for managers and super-admins; a
   * plain user (whose logbook lists their own pipelines' imports) stays in step 5 with its logs, and
   * a Later or Repeat job stays there for everyone; step 5 links to the import in the logbook.
   */
  const afterJob = (answer: JobCreated, kind: string) => {
    setCreated({ ...answer, kind });
    go(4);
    void plan.refresh();
    if (!followsToLogbook || isSchedule(kind)) return;
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

  return { created, forget: () => setCreated(null), runJob, runCountries };
}
