import { jsonToTree, treeToJson } from '@gdb/shared/schemas/schema-json';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useState } from 'react';
import { findSchema, saveSchema, schemaKeys } from '../../ground/calls/schemas.ts';
import { showFailure } from '../../ground/request/failure.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { useAddressedDocument } from '../../ui/versions/useAddressedDocument.ts';
import { SCHEMA_TEXTS } from './schema-texts.ts';
import { useSchemaEditor } from './useSchemaEditor.ts';
import { useSchemaTransfers } from './useSchemaTransfers.ts';

const NEW_SCHEMA = { type: 'object', properties: {} };

/** A data model with no field and no other keyword: dropping it loses nothing worth a question. */
function isEmptyModel(json: unknown): boolean {
  if (typeof json !== 'object' || json === null) return true;
  const { type, properties, ...rest } = json as Record<string, unknown>;
  const noFields =
    properties === undefined || (typeof properties === 'object' && properties !== null && Object.keys(properties).length === 0);
  return (type === undefined || type === 'object') && noFields && Object.keys(rest).length === 0;
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

  const transfers = useSchemaTransfers(editor, mayDrop, setBusy);

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
    ...transfers,
  };
}

export type SchemaDocumentState = ReturnType<typeof useSchemaDocument>;
