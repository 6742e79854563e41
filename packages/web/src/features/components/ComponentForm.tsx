import type { Component } from '@gdb/shared/components/components.schemas';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Spin } from 'antd';
import { useMemo, useRef } from 'react';
import { schemaByName, schemaKeys } from '../../ground/calls/schemas.ts';
import { errorText } from '../../ground/request/failure.ts';
import type { DynamicFormHandle } from '../../ui/forms/DynamicForm.tsx';
import { DynamicForm } from '../../ui/forms/index.ts';
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
  const schema = useQuery({
    queryKey: [...schemaKeys.all, 'byname', COMPONENT_FORM_SCHEMA],
    queryFn: () => schemaByName(COMPONENT_FORM_SCHEMA),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const form = useRef<DynamicFormHandle>(null);
  const value = useMemo(() => formValue(doc), [doc]);

  if (schema.error) return <Alert type="error" showIcon role="alert" title={errorText(schema.error)} />;
  if (!schema.data) return <Spin />;
  const save = async () => {
    const handle = form.current;
    if (handle && (await handle.validate())) onSave(handle.getValue());
  };
  const saveButton = (
    <Button type="primary" disabled={readOnly} loading={saving} onClick={() => void save()}>
      {COMPONENT_TEXTS.save}
    </Button>
  );
  return (
    <div className="gdb-component-form">
      <div className="gdb-component-form-bar">{saveButton}</div>
      <DynamicForm
        ref={form}
        schema={schema.data.jsonSchema}
        value={value}
        name="component"
        widgets={WIDGETS}
        disabled={readOnly}
        onChange={(_, state) => onDirty(state.dirty)}
      />
      <div className="gdb-component-form-bar">{saveButton}</div>
    </div>
  );
}
