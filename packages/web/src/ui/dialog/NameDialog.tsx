import { Button, Form, Input } from 'antd';
import { useEffect, useId, useState } from 'react';
import { Dialog } from './Dialog.tsx';

export interface NameDialogProps {
  open: boolean;
  title: string;
  /** The confirm button's text (Create, Rename); OK by default. */
  confirmText?: string;
  initial?: string;
  /** Takes the trimmed name; a rejection keeps the dialog open. */
  onConfirm: (name: string) => void | Promise<void>;
  onCancel: () => void;
}

/** The create or rename dialog of every screen: a Name field, the confirm button disabled while it is empty, Enter confirms. */
export function NameDialog({ open, title, confirmText = 'OK', initial = '', onConfirm, onCancel }: NameDialogProps) {
  const id = useId();
  const [name, setName] = useState(initial);
  const [busy, setBusy] = useState(false);
  const clean = name.trim();

  // biome-ignore lint/correctness/useExhaustiveDependencies: each opening starts from the name given
  useEffect(() => {
    if (open) setName(initial);
  }, [open]);

  const confirm = async () => {
    if (!clean || busy) return;
    setBusy(true);
    try {
      await onConfirm(clean);
    } catch {
      // Said by the caller; the dialog stays open.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={title}
      onCancel={onCancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onCancel}>
          Cancel
        </Button>,
        <Button key="confirm" type="primary" disabled={!clean} loading={busy} onClick={() => void confirm()}>
          {confirmText}
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
              void confirm();
            }}
          />
        </Form.Item>
      </Form>
    </Dialog>
  );
}
