import { type ReactNode, useMemo } from 'react';
import { SavedForm } from '../../ui/forms/SavedForm.tsx';
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
  const value = useMemo(() => formValue(doc), [doc]);
  return (
    <SavedForm
      model={SDK_FORM_SCHEMA}
      value={value}
      name="sdk"
      readOnly={readOnly}
      saving={saving}
      saveText={SDK_TEXTS.save}
      onDirty={onDirty}
      onSave={(edited) => onSave({ ...edited, modules: savedModules(edited.modules) })}
      actions={actions}
      className="gdb-sdk-form"
      barClassName="gdb-sdk-bar"
    />
  );
}
