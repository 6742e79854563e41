import { Input, Modal } from 'antd';
import { useState } from 'react';
import { CSP_SAFE_MODAL } from '../../ui/tags/confirmation.ts';
import { PIPELINE_TEXTS } from './pipeline-texts.ts';

export interface NewPipelineDialogProps {
  open: boolean;
  onCreate: (name: string) => Promise<void>;
  onClose: () => void;
}

/** 'New pipeline': a name, Create (disabled while it is empty, Enter confirms) and Cancel. */
export function NewPipelineDialog({ open, onCreate, onClose }: NewPipelineDialogProps) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const create = async () => {
    if (!name.trim() || busy) return;
    setBusy(true);
    try {
      await onCreate(name.trim());
      setName('');
      onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      {...CSP_SAFE_MODAL}
      open={open}
      title={PIPELINE_TEXTS.newPipeline}
      okText={PIPELINE_TEXTS.create}
      cancelText={PIPELINE_TEXTS.cancel}
      okButtonProps={{ disabled: !name.trim() }}
      confirmLoading={busy}
      destroyOnHidden
      onOk={() => void create()}
      onCancel={onClose}
    >
      <Input
        aria-label={PIPELINE_TEXTS.name}
        placeholder={PIPELINE_TEXTS.name}
        value={name}
        autoFocus
        onChange={(e) => setName(e.target.value)}
        onPressEnter={() => void create()}
      />
    </Modal>
  );
}
