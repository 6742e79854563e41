import type { Component } from '@gdb/shared/components/components.schemas';
import { useMemo } from 'react';
import { SavedForm } from '../../ui/forms/SavedForm.tsx';
import { ComponentCodeWidget } from './code/ComponentCodeWidget.tsx';
import { COMPONENT_FORM_SCHEMA, COMPONENT_TEXTS } from './component-texts.ts';

/** The component form's own widgets: code opens the code and SDK dialogs. */
const WIDGETS = { code: ComponentCodeWidget };

/** The fields of a component the form edits. */
function formValue(doc: Component): Record<string, unknown> {
  const { name, description, kind, inputs, outputs, instances, links, jsCode, sdk, testPayload, testContext } = doc;
  return { name, description, kind, inputs, outputs, instances, links, jsCode, sdk, testPayload, testContext };
}

export interface ComponentFormProps {
  doc: Component;
  readOnly: boolean;
  saving: boolean;
  onDirty: (dirty: boolean) => void;
  onSave: (value: Record<string, unknown>) => void;
}

/** The form drawn from the stored data model rt-component, with Save above and below it. */
export function ComponentForm({ doc, readOnly, saving, onDirty, onSave }: ComponentFormProps) {
  const value = useMemo(() => formValue(doc), [doc]);
  return (
    <SavedForm
      model={COMPONENT_FORM_SCHEMA}
      value={value}
      name="component"
      widgets={WIDGETS}
      readOnly={readOnly}
      saving={saving}
      saveText={COMPONENT_TEXTS.save}
      onDirty={onDirty}
      onSave={onSave}
      className="gdb-component-form"
      barClassName="gdb-component-form-bar"
    />
  );
}
