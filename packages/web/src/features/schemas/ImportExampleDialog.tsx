import { UploadOutlined } from '@ant-design/icons';
import { Button, Checkbox, Space, Typography } from 'antd';
import { useEffect, useId, useRef, useState } from 'react';
import { Dialog } from '../../ui/dialog/Dialog.tsx';

/** The example files a data model can be generated from. */
const EXAMPLE_ACCEPT = '.xlsx,.xls,.xml,.csv,.json';

export interface ImportExampleDialogProps {
  open: boolean;
  busy: boolean;
  onGenerate: (file: File, omitStartingArray: boolean) => void;
  onClose: () => void;
}

/** Import example: an example file (xlsx, xls, xml, csv or json) and 'Omit starting array'. */
export function ImportExampleDialog({ open, busy, onGenerate, onClose }: ImportExampleDialogProps) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [omit, setOmit] = useState(true);
  useEffect(() => {
    if (open) setFile(null);
  }, [open]);
  return (
    <Dialog
      open={open}
      title="Import example"
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
        <Button key="ok" type="primary" disabled={!file} loading={busy} onClick={() => file && onGenerate(file, omit)}>
          Generate
        </Button>,
      ]}
    >
      <Space orientation="vertical">
        <label htmlFor={inputId} className="gdb-sr-only">
          Example file
        </label>
        <input
          id={inputId}
          ref={input}
          type="file"
          accept={EXAMPLE_ACCEPT}
          className="gdb-sr-only"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <Button icon={<UploadOutlined />} onClick={() => input.current?.click()}>
          Choose an example file
        </Button>
        <Typography.Text>{file ? file.name : 'xlsx, xls, xml, csv or json'}</Typography.Text>
        <Checkbox checked={omit} onChange={(e) => setOmit(e.target.checked)}>
          Omit starting array
        </Checkbox>
      </Space>
    </Dialog>
  );
}
