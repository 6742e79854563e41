import { type SdkFunction, sdkSaveBodySchema } from '@gdb/shared/sdk/sdk.schemas';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useState } from 'react';
import { findSdk, saveSdk, sdkKeys } from '../../ground/calls/sdk.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { type OpenedCrumb, withOpened } from '../../ui/trail/opened-trail.ts';
import { useAddressedDocument } from '../../ui/versions/useAddressedDocument.ts';
import { SDK_TEXTS } from './sdk-texts.ts';

/** An SDK function version as the editor's shared pieces read it: named by its function name. */
export type SdkDoc = SdkFunction & { name: string };

const named = (fn: SdkFunction): SdkDoc => ({ ...fn, name: fn.functionName });

/**
 * The SDK function the editor shows (route `?id`, rewritten when one opens), the breadcrumb of
 * the functions opened, and open, create and save with their questions and messages.
 */
export function useSdkDocument() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [trail, setTrail] = useState<OpenedCrumb[]>([]);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  /** A version now shown, read or just saved: nothing unsaved, and last (or in its place) in the breadcrumb. */
  const shownNow = (doc: SdkDoc) => {
    setDirty(false);
    setTrail((t) => withOpened(t, doc));
  };
  const addressed = useAddressedDocument<SdkDoc>({
    kind: 'sdk',
    keys: sdkKeys,
    find: async (id, signal) => named(await findSdk(id, signal)),
    create: (name, folderId) => saveSdk({ functionName: name, folder: folderId }),
    texts: SDK_TEXTS,
    unsaved: () => dirty,
    onAdopt: shownNow,
    onOpen: (next) => {
      if (next === null) setDirty(false);
    },
  });
  const { current } = addressed;

  /** Saves the form's value over the shown draft, sent with the save count it was read at. */
  const save = async (value: Record<string, unknown>) => {
    if (!current) return;
    const body = sdkSaveBodySchema.safeParse({
      ...value,
      _id: current._id,
      sys_version: current.sys_version,
      folder: current.folder,
    });
    if (!body.success) return void message.error(body.error.issues[0]?.message ?? 'invalid');
    setSaving(true);
    try {
      const saved = named(await saveSdk(body.data));
      void message.success(SDK_TEXTS.saved(saved._id));
      addressed.keepSaved(saved, current);
      shownNow(saved);
      // Its modules may have changed: the report is read again.
      void queryClient.invalidateQueries({ queryKey: sdkKeys.vulnerabilities(saved._id) });
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setSaving(false);
    }
  };

  return {
    current,
    trail,
    readOnly: !current || addressed.readOnly,
    dirty,
    setDirty,
    saving,
    loadError: addressed.loadError,
    loading: addressed.loading,
    openVersion: addressed.openVersion,
    openAsked: addressed.openAsked,
    createIn: addressed.createIn,
    save,
  };
}
