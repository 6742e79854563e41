import { parseJson } from '@gdb/shared/schemas/schema-rules';
import { Button, Form, Input } from 'antd';
import { useEffect, useId, useState } from 'react';
import { Dialog } from '../../ui/dialog/Dialog.tsx';
import { textRows } from '../../ui/textRows.ts';

export interface EditJsonDialogProps {
  open: boolean;
  /** The JSON text the dialog opens with. */
  text: string;
  readOnly: boolean;
  /** Takes the parsed JSON schema. */
  onSave: (value: Record<string, unknown>) => void;
  onClose: () => void;
}

/** Edit json: the JSON schema as text, Save (when it parses as an object) and Close. */
export function EditJsonDialog({ open, text, readOnly, onSave, onClose }: EditJsonDialogProps) {
  const id = useId();
  const [draft, setDraft] = useState(text);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each opening starts from the current schema
  useEffect(() => {
    if (open) {
      setDraft(text);
      setError(null);
    }
  }, [open]);
  const save = () => {
    const parsed = parseJson(draft);
    if (!parsed.ok) return setError(parsed.error);
    const value = parsed.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return setError('A JSON schema is an object');
    onSave(value as Record<string, unknown>);
  };
  return (
    <Dialog
      open={open}
      title="Edit json"
      width="60%"
      onCancel={onClose}
      destroyOnHidden
      footer={[
        !readOnly && (
          <Button key="save" type="primary" onClick={save}>
            Save
          </Button>
        ),
        <Button key="close" onClick={onClose}>
          Close
        </Button>,
      ]}
    >
      <Form layout="vertical" component="div">
        <Form.Item label="JSON schema" htmlFor={id} validateStatus={error ? 'error' : ''} help={error}>
          <Input.TextArea
            id={id}
            value={draft}
            readOnly={readOnly}
            onChange={(e) => setDraft(e.target.value)}
            rows={textRows(draft, 12, 30)}
            spellCheck={false}
            className="gdb-schema-json-text"
          />
        </Form.Item>
      </Form>
    </Dialog>
  );
}
