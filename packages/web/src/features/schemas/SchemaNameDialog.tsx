import { Button, Form, Input, Modal } from 'antd';
import { useEffect, useId, useState } from 'react';
import { CSP_SAFE_MODAL } from '../../ui/tags/confirmation.ts';

export interface SchemaNameDialogProps {
  open: boolean;
  title: string;
  initial?: string;
  onConfirm: (name: string) => void;
  onCancel: () => void;
}

/** The create-name dialog: OK is enabled only when the name is not empty; Enter submits. */
export function SchemaNameDialog({ open, title, initial = '', onConfirm, onCancel }: SchemaNameDialogProps) {
  const id = useId();
  const [name, setName] = useState(initial);
  const clean = name.trim();
  // biome-ignore lint/correctness/useExhaustiveDependencies: each opening starts from the name given
  useEffect(() => {
    if (open) setName(initial);
  }, [open]);
  const confirm = () => {
    if (clean) onConfirm(clean);
  };
  return (
    <Modal
      {...CSP_SAFE_MODAL}
      open={open}
      title={title}
      onCancel={onCancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onCancel}>
          Cancel
        </Button>,
        <Button key="ok" type="primary" disabled={!clean} onClick={confirm}>
          OK
        </Button>,
      ]}
    >
      <Form layout="vertical" component="div">
        <Form.Item label="Name" htmlFor={id} required>
          <Input
            id={id}
            value={name}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            onPressEnter={(e) => {
              // The key must not reach the button that gets the focus back once the dialog closes.
              e.preventDefault();
              confirm();
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
