import { IMPORT_MESSAGES, mayCreateJobKind } from '@gdb/shared/imports/import-rules';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useEffect, useState } from 'react';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import * as calls from './api.ts';
import { importKeys } from './queries.ts';
import {
  CANCEL_QUESTION,
  DEFAULT_SCHEDULE,
  editingBlockedReason,
  formOfJob,
  NOW_QUESTION,
  type ScheduleForm,
  type ScheduleKind,
} from './wizard-rules.ts';

/**
 * The pipeline's current import and job as step 4 plans them: the job the caller edits (one of a
 * kind its roles may create, as the server decides), the others read-only, the scheduler's form.
 */
export function useWizardJob(pipelineId: string | null, active: boolean, roles: readonly string[], report: (e: unknown) => void) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const [schedule, setSchedule] = useState<ScheduleForm>(DEFAULT_SCHEDULE);
  const [scheduleFor, setScheduleFor] = useState<string | null>(null);
  const current = useQuery({
    queryKey: importKeys.job(pipelineId ?? ''),
    queryFn: ({ signal }) => calls.currentJob(pipelineId ?? '', signal),
    enabled: !!pipelineId && active,
  });
  const answer = current.data;
  // The server answers only a job the caller may change; the same rule here keeps a stale answer read-only.
  const job = answer?.job && mayCreateJobKind(roles, answer.job.jobKind) ? answer.job : null;
  const others = answer ? [...answer.others, ...(answer.job && !job ? [answer.job] : [])] : [];
  const imp = answer?.imp ?? null;
  const blocked = editingBlockedReason(imp, job);
  const canCancel = !!imp && (!imp.jobKind || mayCreateJobKind(roles, imp.jobKind));

  // An existing job's schedule fills the form once per pipeline (the scheduler waits for it).
  useEffect(() => {
    if (!pipelineId || !answer || scheduleFor === pipelineId) return;
    setScheduleFor(pipelineId);
    if (job) setSchedule(formOfJob(job));
  }, [pipelineId, answer, job, scheduleFor]);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: importKeys.job(pipelineId ?? '') });
    await queryClient.invalidateQueries({ queryKey: importKeys.scheduled });
  };

  /** Switching an existing Later or Repeat job to Now asks, then deletes it (docs/product.md §10.3). */
  const changeKind = async (kind: ScheduleKind) => {
    if (kind === 'immediate' && job && job.jobKind !== 'immediate') {
      if (!(await askConfirmation(modal, NOW_QUESTION))) return;
      try {
        await calls.deleteJob(job._id);
        await refresh();
      } catch (error) {
        report(error);
        return;
      }
    }
    setSchedule((s) => ({ ...s, kind }));
  };

  const cancelImport = async () => {
    if (!imp || !canCancel || !(await askConfirmation(modal, CANCEL_QUESTION))) return;
    try {
      await calls.deleteImport(imp._id);
      message.success(IMPORT_MESSAGES.cancelled);
      setSchedule(DEFAULT_SCHEDULE);
      await refresh();
    } catch (error) {
      report(error);
    }
  };

  /** Forgets the form when another pipeline is chosen. */
  const reset = () => {
    setScheduleFor(null);
    setSchedule(DEFAULT_SCHEDULE);
  };

  return { current, imp, job, others, blocked, canCancel, schedule, setSchedule, changeKind, cancelImport, refresh, reset };
}
