import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useState } from 'react';
import { type PublishKind, publishedKeys, unpublish } from '../../ground/calls/published.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import type { ShownKey } from '../../ui/publish/KeyNotice.tsx';
import { pipelineLabel } from '../../ui/publish/publish-rules.ts';
import { PUBLISH_TEXTS } from '../../ui/publish/publish-texts.ts';

/** What both screens list: a published pipeline. */
export interface PublishedRow {
  _id: string;
  pipelineId: string;
  pipelineName?: string | null | undefined;
  pipelineVersion?: number | null | undefined;
  pipelineVLocked?: boolean | null | undefined;
  isValid: boolean;
}

/**
 * RE-publish and UN-publish of the chosen rows, each after its confirmation (docs/product.md §18.7):
 * un-publish deletes them one by one and takes each row out of the cached list once deleted (a
 * failure stops there); re-publish calls once per pipeline, shows each failure, then reloads.
 */
export function usePublishedActions<T extends PublishedRow>(
  kind: PublishKind,
  chosen: readonly T[],
  republish: (row: T) => Promise<ShownKey | null>,
  onRemoved: (id: string) => void,
) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'republish' | 'unpublish' | null>(null);
  const [keys, setKeys] = useState<ShownKey[]>([]);
  const names = chosen.map(pipelineLabel);

  const unpublishChosen = async () => {
    if (!(await askConfirmation(modal, PUBLISH_TEXTS.unpublishQuestion(names)))) return;
    setBusy('unpublish');
    try {
      for (const row of chosen) {
        await unpublish(kind, row._id);
        queryClient.setQueryData<T[]>(publishedKeys.list(kind), (old) => old?.filter((r) => r._id !== row._id));
        onRemoved(row._id);
      }
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setBusy(null);
    }
  };

  const republishChosen = async () => {
    if (!(await askConfirmation(modal, PUBLISH_TEXTS.republishQuestion(names)))) return;
    setBusy('republish');
    const shown: ShownKey[] = [];
    let done = 0;
    for (const row of chosen) {
      try {
        const key = await republish(row);
        if (key) shown.push(key);
        done += 1;
      } catch (error) {
        showFailure(error, message.error);
      }
    }
    setKeys(shown);
    if (done > 0) message.success(PUBLISH_TEXTS.published);
    setBusy(null);
    await queryClient.invalidateQueries({ queryKey: publishedKeys.list(kind) });
  };

  return { busy, keys, unpublishChosen, republishChosen };
}
