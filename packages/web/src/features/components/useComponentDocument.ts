import { type Component, componentSaveBodySchema } from '@gdb/shared/components/components.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { componentKeys, findComponent, saveComponent } from '../../ground/calls/components.ts';
import { folderTreeChanged } from '../../ground/calls/folders.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { askConfirmation } from '../../ui/tags/confirmation.ts';
import { COMPONENT_TEXTS } from './component-texts.ts';
import { type OpenedCrumb, withOpened } from './opened-trail.ts';

/** A read version replaces the shown one unless it is the one just saved (same id, lock and save count). */
const replaces = (shown: Component | null, read: Component) =>
  !shown || shown._id !== read._id || shown.vLocked !== read.vLocked || shown.sys_version < read.sys_version;

/**
 * The component the editor shows (route `?id`, rewritten when one opens), the breadcrumb of the
 * components opened, and open, create and save with their questions and messages.
 */
export function useComponentDocument() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const [current, setCurrent] = useState<Component | null>(null);
  const [trail, setTrail] = useState<OpenedCrumb[]>([]);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const currentRef = useRef(current);
  currentRef.current = current;

  const query = useQuery({
    queryKey: componentKeys.find(id ?? ''),
    queryFn: ({ signal }) => findComponent(id ?? '', signal),
    enabled: !!id,
    retry: false,
  });

  useEffect(() => {
    const doc = query.data;
    if (!doc || doc._id !== id || !replaces(currentRef.current, doc)) return;
    setCurrent(doc);
    setDirty(false);
    setTrail((t) => withOpened(t, doc));
  }, [query.data, id]);

  useEffect(() => {
    if (query.error) showFailure(query.error, message.error);
  }, [query.error, message]);

  const readOnly = !current || current.vLocked || current.read_only || !current.write_access;

  /** Asks before unsaved changes are dropped; true to go on. */
  const mayDrop = useCallback(async () => !dirty || (await askConfirmation(modal, COMPONENT_TEXTS.wouldBeLost)), [dirty, modal]);

  /** Opens a version (or none): the address is rewritten with its id. */
  const openVersion = useCallback(
    (next: string | null) => {
      // The list's labels and the shown version may have changed (locked, new, deleted, updated).
      void queryClient.invalidateQueries({ queryKey: componentKeys.all });
      void folderTreeChanged(queryClient, 'component');
      if (next === null) {
        setCurrent(null);
        setDirty(false);
      }
      setParams(next === null ? {} : { id: next });
    },
    [setParams, queryClient],
  );

  /** The explorer's New component: made at once in the folder, then opened. */
  const createIn = async (name: string, folderId: string) => {
    if (!(await mayDrop())) throw new Error('kept');
    try {
      const made = await saveComponent({ name, folder: folderId });
      void message.success(COMPONENT_TEXTS.saved);
      openVersion(made._id);
    } catch (error) {
      showFailure(error, message.error);
      throw error;
    }
  };

  /** Saves the form's value over the shown draft, sent with the save count it was read at. */
  const save = async (value: Record<string, unknown>) => {
    const shown = current;
    if (!shown) return;
    const body = componentSaveBodySchema.safeParse({
      ...value,
      _id: shown._id,
      sys_version: shown.sys_version,
      folder: shown.folder,
    });
    if (!body.success) return void message.error(body.error.issues[0]?.message ?? 'invalid');
    setSaving(true);
    try {
      const saved = await saveComponent(body.data);
      void message.success(COMPONENT_TEXTS.saved);
      currentRef.current = saved;
      setCurrent(saved);
      setDirty(false);
      setTrail((t) => withOpened(t, saved));
      queryClient.setQueryData(componentKeys.find(saved._id), saved);
      if (shown.name !== saved.name) void folderTreeChanged(queryClient, 'component');
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setSaving(false);
    }
  };

  return {
    current,
    trail,
    readOnly,
    dirty,
    setDirty,
    saving,
    loadError: query.error,
    loading: query.isFetching && !current,
    mayDrop,
    openVersion,
    createIn,
    save,
  };
}

export type ComponentDocumentState = ReturnType<typeof useComponentDocument>;
