import { jsonText, jsonToTree, treeToJson } from '@gdb/shared/schemas/schema-json';
import { parseJson } from '@gdb/shared/schemas/schema-rules';
import type { SchemaDocument } from '@gdb/shared/schemas/schemas.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { folderTreeChanged } from '../../ground/calls/folders.ts';
import { findSchema, generateSchemas, saveSchema, schemaKeys } from '../../ground/calls/schemas.ts';
import { errorText, showFailure } from '../../ground/request/failure.ts';
import { askConfirmation } from '../../ui/tags/confirmation.ts';
import { showApart } from '../../ui/versions/version-texts.ts';
import { baseName, downloadJson } from './schema-files.ts';
import { generateErrorText, LONG_TOAST_SECONDS, SCHEMA_TEXTS } from './schema-texts.ts';
import { useSchemaEditor } from './useSchemaEditor.ts';

const NEW_SCHEMA = { type: 'object', properties: {} };

/** A JSON value that is a schema object, or the error saying it is not. */
function schemaObject(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: SCHEMA_TEXTS.notAnObject };
  return { ok: true, value: v as Record<string, unknown> };
}

/**
 * The data model the editor shows (route `?id`, rewritten when one opens), its tree and history,
 * and the document actions: open, new, save, imports, copy, paste and download, with their
 * confirmations and messages.
 */
export function useSchemaDocument() {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const editor = useSchemaEditor(jsonToTree(NEW_SCHEMA, ''));
  const [current, setCurrent] = useState<SchemaDocument | null>(null);
  const [isNew, setIsNew] = useState(false);
  const [busy, setBusy] = useState<'save' | 'generate' | null>(null);
  const currentRef = useRef(current);
  currentRef.current = current;

  const query = useQuery({
    queryKey: schemaKeys.find(id ?? ''),
    queryFn: ({ signal }) => findSchema(id ?? '', signal),
    enabled: !!id,
    retry: false,
  });

  // A version read from the server (a new one, or the shown one locked) starts the editor over; the one just saved does not.
  const { load } = editor;
  useEffect(() => {
    const doc = query.data;
    if (!doc || doc._id !== id) return;
    const shown = currentRef.current;
    if (shown && shown._id === doc._id && shown.vLocked === doc.vLocked && shown.sys_version >= doc.sys_version) return;
    setCurrent(doc);
    setIsNew(false);
    load(jsonToTree(doc.jsonSchema, doc.name), true);
  }, [query.data, id, load]);

  useEffect(() => {
    if (query.error) showFailure(query.error, message.error);
  }, [query.error, message]);

  const readOnly = !!current && (current.vLocked || current.read_only || !current.write_access);
  const open = current !== null || isNew;
  const ask = useCallback((text: string) => askConfirmation(modal, text), [modal]);
  /** Asks before unsaved changes are dropped; true to go on. */
  const mayDrop = useCallback(
    async () => !editor.dirty || !open || (await ask(SCHEMA_TEXTS.wouldBeLost)),
    [editor.dirty, open, ask],
  );

  /** Opens a version (or none): the address is rewritten with its id. */
  const openVersion = useCallback(
    (next: string | null) => {
      setIsNew(false);
      if (next === null) {
        setCurrent(null);
        setParams({});
        void queryClient.invalidateQueries({ queryKey: schemaKeys.list });
        void folderTreeChanged(queryClient, 'schema');
        return;
      }
      // The list's labels and the shown version may have changed (locked, new, deleted, updated).
      void queryClient.invalidateQueries({ queryKey: schemaKeys.all });
      void folderTreeChanged(queryClient, 'schema');
      setParams({ id: next });
    },
    [setParams, queryClient],
  );

  const startNew = (name: string) => {
    setCurrent(null);
    setIsNew(true);
    setParams({});
    load(jsonToTree(NEW_SCHEMA, name), false);
  };

  /** The explorer's New schema: an empty object data model made at once in the folder, then opened. */
  const createIn = async (name: string, folderId: string) => {
    if (!(await mayDrop())) throw new Error('kept');
    try {
      const made = await saveSchema({ name, folder: folderId, jsonSchema: NEW_SCHEMA });
      void message.success(SCHEMA_TEXTS.saved);
      void folderTreeChanged(queryClient, 'schema');
      openVersion(made._id);
    } catch (error) {
      showFailure(error, message.error);
      throw error;
    }
  };

  const save = async () => {
    const root = editor.tree;
    const shown = current;
    if (shown && !(await ask(SCHEMA_TEXTS.confirmSave(root.name)))) return;
    setBusy('save');
    try {
      const jsonSchema = treeToJson(root);
      const saved = await saveSchema(
        shown
          ? {
              _id: shown._id,
              name: root.name,
              folder: shown.folder,
              version: shown.version,
              sys_version: shown.sys_version,
              jsonSchema,
            }
          : { name: root.name, folder: null, jsonSchema },
      );
      void message.success(SCHEMA_TEXTS.saved);
      currentRef.current = saved;
      setCurrent(saved);
      setIsNew(false);
      editor.saved();
      queryClient.setQueryData(schemaKeys.find(saved._id), saved);
      void queryClient.invalidateQueries({ queryKey: schemaKeys.list });
      if (!shown || shown.name !== saved.name) void folderTreeChanged(queryClient, 'schema');
      if (!shown) setParams({ id: saved._id });
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setBusy(null);
    }
  };

  /** Replaces the tree with a loaded JSON schema (one step of the history), asking first when changes are unsaved. */
  const loadJson = async (value: Record<string, unknown>) => {
    if (!(await mayDrop())) return;
    editor.replace(jsonToTree(value, editor.tree.name));
  };

  const importSchema = async (file: File) => {
    const parsed = schemaObject(await file.text());
    if (!parsed.ok) return void message.error(parsed.error);
    await loadJson(parsed.value);
  };

  const importExample = async (file: File, omitStartingArray: boolean): Promise<boolean> => {
    setBusy('generate');
    try {
      const [first] = await generateSchemas([file], omitStartingArray);
      if (!first) throw new Error('no data model was generated');
      await loadJson(first);
      return true;
    } catch (error) {
      void message.error({ content: generateErrorText(errorText(error)), duration: LONG_TOAST_SECONDS });
      return false;
    } finally {
      setBusy(null);
    }
  };

  /** Import several schemas: each JSON file becomes a new data model named after its title, else its file. */
  const importSeveral = async (files: readonly File[]) => {
    const done: string[] = [];
    for (const file of files) {
      const parsed = schemaObject(await file.text());
      if (!parsed.ok) {
        void message.error(`${file.name}: ${parsed.error}`);
        continue;
      }
      const title = parsed.value.title;
      const name = typeof title === 'string' && title.trim() ? title.trim() : baseName(file.name);
      try {
        await saveSchema({ name, folder: null, jsonSchema: parsed.value });
        done.push(SCHEMA_TEXTS.saved);
      } catch (error) {
        showFailure(error, (text) => message.error(`${name}: ${text}`));
      }
    }
    showApart(done, (text) => message.success(text));
    void queryClient.invalidateQueries({ queryKey: schemaKeys.list });
    void folderTreeChanged(queryClient, 'schema');
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(jsonText(treeToJson(editor.tree)));
      void message.success(SCHEMA_TEXTS.copied);
    } catch {
      void message.error({ content: SCHEMA_TEXTS.copyFailed, duration: LONG_TOAST_SECONDS });
    }
  };

  const paste = async () => {
    let text: string;
    try {
      text = await navigator.clipboard.readText();
    } catch (error) {
      return void message.error(errorText(error));
    }
    const parsed = schemaObject(text);
    if (!parsed.ok) return void message.error(parsed.error);
    editor.replace(jsonToTree(parsed.value, editor.tree.name));
  };

  const download = () => downloadJson(editor.tree.name, treeToJson(editor.tree));

  return {
    id,
    editor,
    current,
    open,
    isNew,
    readOnly,
    busy,
    loadError: query.error,
    loading: query.isFetching && !current,
    mayDrop,
    openVersion,
    startNew,
    createIn,
    save,
    loadJson,
    importSchema,
    importExample,
    importSeveral,
    copy,
    paste,
    download,
  };
}

export type SchemaDocumentState = ReturnType<typeof useSchemaDocument>;
