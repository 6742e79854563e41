import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Spin } from 'antd';
import { type Ref, useImperativeHandle, useMemo, useRef } from 'react';
import { useUserPipelines } from '../../ground/calls/pipelines.ts';
import { useFormModel } from '../../ground/calls/schemas.ts';
import { errorText, showFailure } from '../../ground/request/failure.ts';
import type { DynamicFormHandle } from '../../ui/forms/DynamicForm.tsx';
import { DynamicForm } from '../../ui/forms/index.ts';
import { findPipeline, type PipelineDocument, pipelineDocKeys } from './api.ts';
import { formSchemaOf, formValueOf, INHERITED_FIELDS, inheritedValues } from './pipeline-form.ts';
import { PIPELINE_FORM_SCHEMA } from './pipeline-texts.ts';

/** What the page asks of the form: its value once every rule passes, or null. */
export interface PipelineFormHandle {
  validValue(): Promise<Record<string, unknown> | null>;
}

export interface PipelineFormProps {
  doc: PipelineDocument;
  readOnly: boolean;
  onDirty: (dirty: boolean) => void;
  ref?: Ref<PipelineFormHandle>;
}

/**
 * The form drawn from the stored data model rt-pipeline (data sources and sinks, data models,
 * component, brand, locale, product line, datakind). Choosing a master copies what a country
 * inherits from it; clearing it empties them (docs/product.md §8.3).
 */
export function PipelineForm({ doc, readOnly, onDirty, ref }: PipelineFormProps) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const stored = useFormModel(PIPELINE_FORM_SCHEMA);
  const lists = useUserPipelines();
  const form = useRef<DynamicFormHandle>(null);
  const value = useMemo(() => formValueOf(doc), [doc]);
  // The master the form last followed; another version shown starts from its own.
  const master = useRef(value.masterPipeline);
  const shown = useRef(value);
  if (shown.current !== value) {
    shown.current = value;
    master.current = value.masterPipeline;
  }
  const schema = useMemo(
    () => (stored.data && lists.data ? formSchemaOf(stored.data.jsonSchema, lists.data.staticTypes) : null),
    [stored.data, lists.data],
  );
  useImperativeHandle(ref, () => ({
    validValue: async () => {
      const handle = form.current;
      return handle && (await handle.validate()) ? handle.getValue() : null;
    },
  }));

  /** A master chosen or cleared: what a country inherits follows it. */
  const followMaster = async (id: string) => {
    const chosen = id
      ? await queryClient.fetchQuery({ queryKey: pipelineDocKeys.find(id), queryFn: () => findPipeline(id) })
      : null;
    const copied = inheritedValues(chosen);
    for (const field of INHERITED_FIELDS) form.current?.setValue([field], copied[field]);
  };

  const failure = stored.error ?? lists.error;
  if (failure) return <Alert type="error" showIcon role="alert" title={errorText(failure)} />;
  if (!schema) return <Spin />;
  return (
    <DynamicForm
      ref={form}
      schema={schema}
      value={value}
      name="pipeline"
      disabled={readOnly}
      onChange={(next, state) => {
        onDirty(state.dirty);
        const chosen = typeof next.masterPipeline === 'string' ? next.masterPipeline : '';
        if (chosen === master.current) return;
        master.current = chosen;
        followMaster(chosen).catch((error: unknown) => showFailure(error, message.error));
      }}
    />
  );
}
