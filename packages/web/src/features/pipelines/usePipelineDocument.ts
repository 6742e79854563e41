import { pipelineSaveIssue } from '@gdb/shared/pipelines/pipeline-save.schemas';
import { App } from 'antd';
import { useState } from 'react';
import { showFailure } from '../../ground/request/failure.ts';
import { useAddressedDocument } from '../../ui/versions/useAddressedDocument.ts';
import { findPipeline, type PipelineDocument, pipelineDocKeys, savePipeline } from './api.ts';
import { saveBodyOf } from './pipeline-form.ts';
import { PIPELINE_TEXTS } from './pipeline-texts.ts';

/** A new pipeline: a master named in a folder (null: the root), completed in the form. */
const newPipeline = (name: string, folder: string | null) => savePipeline({ name, folder, isMaster: true });

/**
 * The pipeline the screen shows (route `?id`, rewritten when one opens), and open, create and save
 * with their questions and messages; a save is checked against the save rules first.
 */
export function usePipelineDocument() {
  const { message } = App.useApp();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const addressed = useAddressedDocument<PipelineDocument>({
    kind: 'pipeline',
    keys: pipelineDocKeys,
    find: findPipeline,
    create: (name, folderId) => newPipeline(name, folderId),
    texts: PIPELINE_TEXTS,
    unsaved: () => dirty,
    onAdopt: () => setDirty(false),
    onOpen: (next) => {
      if (next === null) setDirty(false);
    },
  });
  const { current } = addressed;

  /** Saves the form's value over the shown draft: the save rules in their order, then the server's checks. */
  const save = async (value: Record<string, unknown>) => {
    if (!current) return;
    const body = saveBodyOf(value, current);
    const issue = pipelineSaveIssue({
      _id: current._id,
      isMaster: value.isMaster === true,
      masterPipeline: typeof value.masterPipeline === 'string' ? value.masterPipeline : null,
      component: typeof value.component === 'string' ? value.component : null,
    });
    if (issue) return void message.error(issue);
    setSaving(true);
    try {
      const saved = await savePipeline(body);
      void message.success(PIPELINE_TEXTS.saved);
      addressed.keepSaved(saved, current);
      setDirty(false);
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setSaving(false);
    }
  };

  /**
   * The 'New pipeline' button: a master in the root, opened at once. Answers whether it was made
   * (false: the user kept the unsaved changes); a failure is said and rejects, so the name stays.
   */
  const createNew = async (name: string): Promise<boolean> => {
    if (!(await addressed.mayDrop())) return false;
    try {
      const made = await newPipeline(name, null);
      void message.success(PIPELINE_TEXTS.saved);
      addressed.openVersion(made._id);
      return true;
    } catch (error) {
      showFailure(error, message.error);
      throw error;
    }
  };

  return {
    current,
    readOnly: !current || addressed.readOnly,
    dirty,
    setDirty,
    saving,
    loadError: addressed.loadError,
    loading: addressed.loading,
    openVersion: addressed.openVersion,
    openAsked: addressed.openAsked,
    createIn: addressed.createIn,
    createNew,
    save,
  };
}
