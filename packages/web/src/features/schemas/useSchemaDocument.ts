import { jsonText, jsonToTree, treeToJson } from '@gdb/shared/schemas/schema-json';
import { parseJson } from '@gdb/shared/schemas/schema-rules';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useState } from 'react';
import { folderTreeChanged } from '../../ground/calls/folders.ts';
import { findSchema, generateSchemas, saveSchema, schemaKeys } from '../../ground/calls/schemas.ts';
import { errorText, showFailure } from '../../ground/request/failure.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { useAddressedDocument } from '../../ui/versions/useAddressedDocument.ts';
import { showApart } from '../../ui/versions/version-texts.ts';
import { baseName, downloadJson } from './schema-files.ts';
import { generateErrorText, LONG_TOAST_SECONDS, SCHEMA_TEXTS } from './schema-texts.ts';
import { useSchemaEditor } from './useSchemaEditor.ts';

const NEW_SCHEMA = { type: 'object', properties: {} };

/** A data model with no field and no other keyword: dropping it loses nothing worth a question. */
function isEmptyModel(json: unknown): boolean {
  if (typeof json !== 'object' || json === null) return true;
  const { type, properties, ...rest } = json as Record<string, unknown>;
  const noFields =
    properties === undefined || (typeof properties === 'object' && properties !== null && Object.keys(properties).length === 0);
  return (type === undefined || type === 'object') && noFields && Object.keys(rest).length === 0;
}

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
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const editor = useSchemaEditor(jsonToTree(NEW_SCHEMA, ''));
  const [isNew, setIsNew] = useState(false);
  const [busy, setBusy] = useState<'save' | 'generate' | null>(null);
  const { load } = editor;
  const addressed = useAddressedDocument({
    kind: 'schema',
    keys: schemaKeys,
    find: findSchema,
    // The explorer's New schema: an empty object data model.
    create: (name, folderId) => saveSchema({ name, folder: folderId, jsonSchema: NEW_SCHEMA }),
    texts: SCHEMA_TEXTS,
    // Changes count only while a data model is open, saved or new: with none open there is nothing to lose;
    // nor when it was empty and still is.
    unsaved: (doc) =>
      editor.dirty &&
      (doc !== null || isNew) &&
      !(isEmptyModel(treeToJson(editor.tree)) && isEmptyModel(doc?.jsonSchema ?? NEW_SCHEMA)),
    // A version read from the server (a new one, or the shown one locked) starts the editor over; the one just saved does not.
    onAdopt: (doc) => {
      setIsNew(false);
      load(jsonToTree(doc.jsonSchema, doc.name), true);
    },
    onOpen: () => setIsNew(false),
  });
  const { current, mayDrop } = addressed;
  const open = current !== null || isNew;
  const ask = useCallback((text: string) => askConfirmation(modal, text), [modal]);

  const startNew = (name: string) => {
    addressed.showNone();
    setIsNew(true);
    load(jsonToTree(NEW_SCHEMA, name), false);
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
      addressed.keepSaved(saved, shown);
      setIsNew(false);
      editor.saved();
      void queryClient.invalidateQueries({ queryKey: schemaKeys.list });
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
    id: addressed.id,
    editor,
    current,
    open,
    isNew,
    readOnly: addressed.readOnly,
    busy,
    loadError: addressed.loadError,
    loading: addressed.loading,
    mayDrop,
    openVersion: addressed.openVersion,
    openAsked: addressed.openAsked,
    startNew,
    createIn: addressed.createIn,
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
