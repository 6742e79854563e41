import { jsonText, jsonToTree, treeToJson } from '@gdb/shared/schemas/schema-json';
import { parseJson } from '@gdb/shared/schemas/schema-rules';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { folderTreeChanged } from '../../ground/calls/folders.ts';
import { generateSchemas, saveSchema, schemaKeys } from '../../ground/calls/schemas.ts';
import { errorText, showFailure } from '../../ground/request/failure.ts';
import { showApart } from '../../ui/versions/version-texts.ts';
import { baseName, downloadJson } from './schema-files.ts';
import { generateErrorText, LONG_TOAST_SECONDS, SCHEMA_TEXTS } from './schema-texts.ts';
import type { useSchemaEditor } from './useSchemaEditor.ts';

/** A JSON value that is a schema object, or the error saying it is not. */
function schemaObject(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: SCHEMA_TEXTS.notAnObject };
  return { ok: true, value: v as Record<string, unknown> };
}

/**
 * The data model's ways in and out: load a JSON schema, import one, an example or several files,
 * copy, paste and download.
 */
export function useSchemaTransfers(
  editor: ReturnType<typeof useSchemaEditor>,
  mayDrop: () => Promise<boolean>,
  setBusy: (busy: 'generate' | null) => void,
) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();

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

  return { loadJson, importSchema, importExample, importSeveral, copy, paste, download };
}
