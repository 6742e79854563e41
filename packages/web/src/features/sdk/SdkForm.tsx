import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Spin } from 'antd';
import { type ReactNode, useMemo, useRef } from 'react';
import { schemaByName, schemaKeys } from '../../ground/calls/schemas.ts';
import { errorText } from '../../ground/request/failure.ts';
import type { DynamicFormHandle } from '../../ui/forms/DynamicForm.tsx';
import { DynamicForm } from '../../ui/forms/index.ts';
import { formModules, savedModules } from './sdk-modules.ts';
import { SDK_FORM_SCHEMA, SDK_TEXTS } from './sdk-texts.ts';
import type { SdkDoc } from './useSdkDocument.ts';

/** The fields of an SDK function the form edits. */
function formValue(doc: SdkDoc): Record<string, unknown> {
  const { functionName, documentation, input, output, error, modules, jsCode, testPayload } = doc;
  return { functionName, documentation, input, output, error, modules: formModules(modules), jsCode, testPayload };
}

export interface SdkFormProps {
  doc: SdkDoc;
  readOnly: boolean;
  saving: boolean;
  onDirty: (dirty: boolean) => void;
  onSave: (value: Record<string, unknown>) => void;
  /** Buttons shown beside Save, above the form. */
  actions?: ReactNode;
}

/** The form 'Build the sdk', drawn from the stored data model rt-sdk-schema, with Save above and below it. */
export function SdkForm({ doc, readOnly, saving, onDirty, onSave, actions }: SdkFormProps) {
  const schema = useQuery({
    queryKey: [...schemaKeys.all, 'byname', SDK_FORM_SCHEMA],
    queryFn: () => schemaByName(SDK_FORM_SCHEMA),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const form = useRef<DynamicFormHandle>(null);
  const value = useMemo(() => formValue(doc), [doc]);

  if (schema.error) return <Alert type="error" showIcon role="alert" title={errorText(schema.error)} />;
  if (!schema.data) return <Spin />;
  const save = async () => {
    const handle = form.current;
    if (!handle || !(await handle.validate())) return;
    const edited = handle.getValue();
    onSave({ ...edited, modules: savedModules(edited.modules) });
  };
  const saveButton = (
    <Button type="primary" disabled={readOnly} loading={saving} onClick={() => void save()}>
      {SDK_TEXTS.save}
    </Button>
  );
  return (
    <div className="gdb-sdk-form">
      <div className="gdb-sdk-bar">
        {actions}
        {saveButton}
      </div>
      <DynamicForm
        ref={form}
        schema={schema.data.jsonSchema}
        value={value}
        name="sdk"
        disabled={readOnly}
        onChange={(_, state) => onDirty(state.dirty)}
      />
      <div className="gdb-sdk-bar">{saveButton}</div>
    </div>
  );
}
