import type { FolderKind } from '@gdb/shared/folders/folders.schemas';
import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { folderTreeChanged } from '../../ground/calls/folders.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { askConfirmation, useDialogCalls } from '../dialog/calls.ts';
import type { VersionedDoc } from './versioned-doc.ts';

/** The fields of a version this hook reads, beyond those of the version bar. */
export interface AddressedDoc extends VersionedDoc {
  sys_version: number;
  write_access: boolean;
}

/** What one editor's documents differ in: their calls, their folder tree, their words, and what the page does. */
export interface AddressedDocumentOptions<T extends AddressedDoc> {
  /** The kind whose folder tree is refreshed when a version opens, is made or is renamed. */
  kind: FolderKind;
  /** The kind's query keys: all of them, and one version's. */
  keys: { all: QueryKey; find: (id: string) => QueryKey };
  /** Reads one version. */
  find: (id: string, signal: AbortSignal) => Promise<T>;
  /** Makes a document in a folder (the explorer's New). */
  create: (name: string, folderId: string) => Promise<{ _id: string }>;
  /** The question asked before unsaved changes are dropped, and the toast of a document made (given its id). */
  texts: { wouldBeLost: string; saved: string | ((id: string) => string) };
  /** Whether the page holds changes that opening another document would drop, given the shown version. */
  unsaved: (shown: T | null) => boolean;
  /** What the page does when a version read from the server becomes the shown one. */
  onAdopt: (doc: T) => void;
  /** What the page does as soon as another version (or none) is asked for, before it is read. */
  onOpen?: (next: string | null) => void;
}

/** A read version replaces the shown one unless it is the one just saved (same id, lock and save count). */
const replaces = (shown: AddressedDoc | null, read: AddressedDoc) =>
  !shown || shown._id !== read._id || shown.vLocked !== read.vLocked || shown.sys_version < read.sys_version;

/**
 * The version an editor shows, named by the address (`?id`, rewritten when another opens): read
 * from the server, with open, create in a folder and keep-after-save, and their questions and messages.
 */
export function useAddressedDocument<T extends AddressedDoc>(options: AddressedDocumentOptions<T>) {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const [current, setCurrent] = useState<T | null>(null);
  const currentRef = useRef(current);
  currentRef.current = current;
  // The page's options of this render, for the callbacks and the effect that outlive it.
  const page = useRef(options);
  page.current = options;
  const { keys, kind } = options;

  const query = useQuery({
    queryKey: keys.find(id ?? ''),
    queryFn: ({ signal }) => page.current.find(id ?? '', signal),
    enabled: !!id,
    retry: false,
  });

  useEffect(() => {
    const doc = query.data;
    if (!doc || doc._id !== id || !replaces(currentRef.current, doc)) return;
    setCurrent(doc);
    page.current.onAdopt(doc);
  }, [query.data, id]);

  useEffect(() => {
    if (query.error) showFailure(query.error, message.error);
  }, [query.error, message]);

  /** Asks before unsaved changes are dropped; true to go on. */
  const mayDrop = async () => !options.unsaved(current) || (await askConfirmation(modal, options.texts.wouldBeLost));

  /** Opens a version (or none): the address is rewritten with its id. */
  const openVersion = useCallback(
    (next: string | null) => {
      const { keys, kind, onOpen } = page.current;
      // The list's labels and the shown version may have changed (locked, new, deleted, updated).
      void queryClient.invalidateQueries({ queryKey: keys.all });
      void folderTreeChanged(queryClient, kind);
      onOpen?.(next);
      if (next === null) setCurrent(null);
      setParams(next === null ? {} : { id: next });
    },
    [setParams, queryClient],
  );

  /** The explorer's pick: another document opens once its unsaved changes may be dropped. */
  const openAsked = async (next: string) => {
    if (next !== current?._id && (await mayDrop())) openVersion(next);
  };

  /** The explorer's New: made at once in the folder, then opened. */
  const createIn = async (name: string, folderId: string) => {
    if (!(await mayDrop())) throw new Error('kept');
    try {
      const made = await options.create(name, folderId);
      const { saved } = options.texts;
      void message.success(typeof saved === 'string' ? saved : saved(made._id));
      openVersion(made._id);
    } catch (error) {
      showFailure(error, message.error);
      throw error;
    }
  };

  /**
   * Shows the version just saved over `shown` (null for a document saved the first time, which
   * then gets its address); a read of the version as it was before will not replace it.
   */
  const keepSaved = (saved: T, shown: T | null) => {
    currentRef.current = saved;
    setCurrent(saved);
    queryClient.setQueryData(keys.find(saved._id), saved);
    if (!shown || shown.name !== saved.name) void folderTreeChanged(queryClient, kind);
    if (!shown) setParams({ id: saved._id });
  };

  /** Shows no version and reads none: the address loses its id. */
  const showNone = () => {
    setCurrent(null);
    setParams({});
  };

  return {
    id,
    current,
    readOnly: !!current && (current.vLocked || current.read_only || !current.write_access),
    loadError: query.error,
    loading: query.isFetching && !current,
    mayDrop,
    openVersion,
    openAsked,
    createIn,
    keepSaved,
    showNone,
  };
}
