import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { UPLOAD_MESSAGES } from '@gdb/shared/uploads/upload.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useMemo, useState } from 'react';
import { uploadFiles, uploadKeys, useLastUploads } from '../../ground/calls/uploads.ts';
import { ApiError } from '../../ground/request/request.ts';
import { useLiveUploads } from '../../ui/useLiveUploads.ts';
import * as calls from './api.ts';
import { useUploadVerdicts } from './useUploadVerdicts.ts';
import { latestStatuses, realtimeSources, withLiveUploads } from './wizard-rules.ts';

/** The toast that says how many of the chosen files the server stored (docs/product.md §9.6). */
function storedMessage(chosen: number, stored: number): string {
  if (stored === 0) return UPLOAD_MESSAGES.allFailed;
  return stored < chosen ? UPLOAD_MESSAGES.someFailed : UPLOAD_MESSAGES.succeeded;
}

/**
 * The wizard's uploads (steps 2 to 4): the files chosen per data source, the uploads this session
 * sent (followed live), and the pipeline's last lists with those live statuses merged in.
 */
export function useWizardUploads(pipelineId: string | null, step: number, report: (e: unknown) => void) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Map<string, File>>(new Map());
  const [sessionIds, setSessionIds] = useState<string[]>([]);
  const last = useLastUploads(pipelineId, step >= 1 && step <= 3);
  const live = useLiveUploads(sessionIds);
  useUploadVerdicts(live.uploads);

  // The live statuses of this session's uploads win over the last list loaded before their checks ended.
  const lists = useMemo(() => withLiveUploads(last.data ?? [], live.uploads), [last.data, live.uploads]);
  const statuses = useMemo(() => latestStatuses(last.data ?? [], live.uploads), [last.data, live.uploads]);

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
  const submit = async (p: PipelineView): Promise<string | null> => {
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

  /** A new pipeline starts with nothing chosen or sent. */
  const clear = () => {
    setChosen(new Map());
    setSessionIds([]);
  };

  return { chosen, sessionIds, session: live.uploads, lists, statuses, choose, toggle, submit, clear };
}
