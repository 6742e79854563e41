import { Button, Form, Input } from 'antd';
import { useId, useState } from 'react';
import { Dialog } from '../../ui/dialog/Dialog.tsx';

export interface CreateFolderDialogProps {
  open: boolean;
  onCreate: (name: string) => void;
  onCancel: () => void;
}

/** The Create Folder dialog: a Folder name, Validate (disabled while the name is empty) and Cancel. */
export function CreateFolderDialog({ open, onCreate, onCancel }: CreateFolderDialogProps) {
  const id = useId();
  const [name, setName] = useState('');
  const clean = name.trim();
  const cancel = () => {
    setName('');
    onCancel();
  };
  const validate = () => {
    if (!clean) return;
    setName('');
    onCreate(clean);
  };
  return (
    <Dialog
      open={open}
      title="Create Folder"
      onCancel={cancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={cancel}>
          Cancel
        </Button>,
        <Button key="validate" type="primary" disabled={!clean} onClick={validate}>
          Validate
        </Button>,
      ]}
    >
      <Form layout="vertical" component="div">
        <Form.Item label="Folder name" htmlFor={id} required>
          <Input
            id={id}
            value={name}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            onPressEnter={(e) => {
              // The key must not reach Create Folder, which gets the focus back as the dialog closes and would open it again.
              e.preventDefault();
              validate();
            }}
          />
        </Form.Item>
      </Form>
    </Dialog>
  );
}
