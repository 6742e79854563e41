import { Button, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { DynamicForm, type DynamicFormHandle } from './DynamicForm.tsx';

const PREVIEW_TEXTS = { validate: 'Validate', reset: 'Reset', passed: 'Validation passed' } as const;

export interface FormPreviewProps {
  /** The form schema to try: a JSON schema with the form library's field options. */
  schema: unknown;
  name?: string;
}

/** A data model drawn as its form, with Validate and Reset, to try its fields and rules. */
export function FormPreview({ schema, name = 'form-preview' }: FormPreviewProps) {
  const form = useRef<DynamicFormHandle>(null);
  const [passed, setPassed] = useState(false);
  return (
    <div className="gdb-form-preview-panel">
      <DynamicForm schema={schema} name={name} ref={form} onChange={() => setPassed(false)} />
      <Space className="gdb-form-preview-bar">
        <Button type="primary" onClick={() => void form.current?.validate().then(setPassed)}>
          {PREVIEW_TEXTS.validate}
        </Button>
        <Button
          onClick={() => {
            form.current?.reset();
            setPassed(false);
          }}
        >
          {PREVIEW_TEXTS.reset}
        </Button>
        {passed ? (
          // The theme's success colour (app/theme.ts), as every success the app shows.
          <Typography.Text type="success" role="status" className="gdb-form-preview-passed">
            {PREVIEW_TEXTS.passed}
          </Typography.Text>
        ) : null}
      </Space>
    </div>
  );
}
