import { Alert, Button, Spin } from 'antd';
import { type ReactNode, useRef } from 'react';
import { useFormModel } from '../../ground/calls/schemas.ts';
import { errorText } from '../../ground/request/failure.ts';
import { DynamicForm, type DynamicFormHandle, type DynamicFormProps } from './DynamicForm.tsx';

export interface SavedFormProps {
  /** The stored system data model the form is drawn from. */
  model: string;
  value: Record<string, unknown>;
  /** The form's name (its fields' ids). */
  name: string;
  widgets?: DynamicFormProps['widgets'];
  readOnly: boolean;
  saving: boolean;
  saveText: string;
  onDirty: (dirty: boolean) => void;
  /** The form's value once every rule passes. */
  onSave: (value: Record<string, unknown>) => void;
  /** Buttons shown beside the upper Save. */
  actions?: ReactNode;
  className: string;
  barClassName: string;
}

/** A document's form drawn from a stored system data model, with Save above and below it. */
export function SavedForm(props: SavedFormProps) {
  const model = useFormModel(props.model);
  const form = useRef<DynamicFormHandle>(null);
  if (model.error) return <Alert type="error" showIcon role="alert" title={errorText(model.error)} />;
  if (!model.data) return <Spin />;
  const save = async () => {
    const handle = form.current;
    if (handle && (await handle.validate())) props.onSave(handle.getValue());
  };
  const saveButton = (
    <Button type="primary" disabled={props.readOnly} loading={props.saving} onClick={() => void save()}>
      {props.saveText}
    </Button>
  );
  return (
    <div className={props.className}>
      <div className={props.barClassName}>
        {props.actions}
        {saveButton}
      </div>
      <DynamicForm
        ref={form}
        schema={model.data.jsonSchema}
        value={props.value}
        name={props.name}
        {...(props.widgets ? { widgets: props.widgets } : {})}
        disabled={props.readOnly}
        onChange={(_, state) => props.onDirty(state.dirty)}
      />
      <div className={props.barClassName}>{saveButton}</div>
    </div>
  );
}
