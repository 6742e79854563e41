import { TAG_SELECTOR } from '@gdb/shared/tags/tag-selector';
import { useState } from 'react';
import { askConfirmation, useDialogCalls } from '../dialog/calls.ts';

/**
 * Save and close of a badges dialog: save stores and closes (a refusal, said by the caller, keeps
 * it open); close with changes asks 'Do you want to save the current modifications?' first.
 */
export function useSaveOnClose(changed: boolean, store: () => void | Promise<void>, onClose: () => void) {
  const modal = useDialogCalls();
  const [saving, setSaving] = useState(false);

  const save = async () => {
    setSaving(true);
    try {
      await store();
      onClose();
    } catch {
      // The caller said why; the dialog stays open.
    } finally {
      setSaving(false);
    }
  };

  const close = async () => {
    if (changed && (await askConfirmation(modal, TAG_SELECTOR.saveChanges))) await save();
    else onClose();
  };

  return { saving, save, close };
}
