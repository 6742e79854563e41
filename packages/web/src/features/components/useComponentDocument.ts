import { type Component, componentSaveBodySchema } from '@gdb/shared/components/components.schemas';
import { App } from 'antd';
import { useState } from 'react';
import { componentKeys, findComponent, saveComponent } from '../../ground/calls/components.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { type OpenedCrumb, withOpened } from '../../ui/trail/opened-trail.ts';
import { useAddressedDocument } from '../../ui/versions/useAddressedDocument.ts';
import { COMPONENT_TEXTS } from './component-texts.ts';

/**
 * The component the editor shows (route `?id`, rewritten when one opens), the breadcrumb of the
 * components opened, and open, create and save with their questions and messages.
 */
export function useComponentDocument() {
  const { message } = App.useApp();
  const [trail, setTrail] = useState<OpenedCrumb[]>([]);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  /** A version now shown, read or just saved: nothing unsaved, and last (or in its place) in the breadcrumb. */
  const shownNow = (doc: Component) => {
    setDirty(false);
    setTrail((t) => withOpened(t, doc));
  };
  const addressed = useAddressedDocument({
    kind: 'component',
    keys: componentKeys,
    find: findComponent,
    create: (name, folderId) => saveComponent({ name, folder: folderId }),
    texts: COMPONENT_TEXTS,
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
    const body = componentSaveBodySchema.safeParse({
      ...value,
      _id: current._id,
      sys_version: current.sys_version,
      folder: current.folder,
    });
    if (!body.success) return void message.error(body.error.issues[0]?.message ?? 'invalid');
    setSaving(true);
    try {
      const saved = await saveComponent(body.data);
      void message.success(COMPONENT_TEXTS.saved);
      addressed.keepSaved(saved, current);
      shownNow(saved);
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
    mayDrop: addressed.mayDrop,
    openVersion: addressed.openVersion,
    openAsked: addressed.openAsked,
    createIn: addressed.createIn,
    save,
  };
}
