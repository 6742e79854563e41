import { App } from 'antd';
import { useState } from 'react';
import type { ZodType } from 'zod';
import { showFailure } from '../../ground/request/failure.ts';
import { type OpenedCrumb, withOpened } from '../trail/opened-trail.ts';
import { type AddressedDoc, type AddressedDocumentOptions, useAddressedDocument } from './useAddressedDocument.ts';

/** A document edited through a form: addressed, named in the breadcrumb, kept in a folder. */
interface FormDoc extends AddressedDoc {
  familyId: string;
  name: string;
  folder: string | null;
}

/** What a form editor's documents differ in: their calls and words, and how a save is checked and sent. */
export interface FormDocumentOptions<T extends FormDoc, B>
  extends Pick<AddressedDocumentOptions<T>, 'kind' | 'keys' | 'find' | 'create' | 'texts'> {
  /** Checks a save's body: the form's value with the shown draft's id, save count and folder. */
  saveBody: ZodType<B>;
  /** Sends a save; answers the saved version. */
  saveCall: (body: B) => Promise<T>;
  /** What the page does once a version is saved (reads again what depends on it, say). */
  afterSave?: (saved: T) => void;
}

/**
 * The document a form editor shows (route `?id`, rewritten when one opens), the breadcrumb of
 * the documents opened, whether the form holds unsaved changes, and open, create and save with
 * their questions and messages.
 */
export function useFormDocument<T extends FormDoc, B>(options: FormDocumentOptions<T, B>) {
  const { message } = App.useApp();
  const [trail, setTrail] = useState<OpenedCrumb[]>([]);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  /** A version now shown, read or just saved: nothing unsaved, and last (or in its place) in the breadcrumb. */
  const shownNow = (doc: T) => {
    setDirty(false);
    setTrail((t) => withOpened(t, doc));
  };
  const addressed = useAddressedDocument<T>({
    ...options,
    unsaved: () => dirty,
    onAdopt: shownNow,
    onOpen: (next) => {
      if (next === null) setDirty(false);
    },
  });
  const { current } = addressed;
  const { saved: savedText } = options.texts;

  /** Saves the form's value over the shown draft, sent with the save count it was read at. */
  const save = async (value: Record<string, unknown>) => {
    if (!current) return;
    const body = options.saveBody.safeParse({
      ...value,
      _id: current._id,
      sys_version: current.sys_version,
      folder: current.folder,
    });
    if (!body.success) return void message.error(body.error.issues[0]?.message ?? 'invalid');
    setSaving(true);
    try {
      const saved = await options.saveCall(body.data);
      void message.success(typeof savedText === 'string' ? savedText : savedText(saved._id));
      addressed.keepSaved(saved, current);
      shownNow(saved);
      options.afterSave?.(saved);
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
