import { App, Button, Select, Upload } from 'antd';
import { useState } from 'react';
import { showFailure } from '../../../ground/request/failure.ts';
import { Dialog } from '../../../ui/dialog/Dialog.tsx';
import { readTestFile } from '../api.ts';
import { TEST_TEXTS } from './test-texts.ts';

export interface LoadDialogProps {
  ports: readonly string[];
  onLoaded: (port: string, rows: unknown[]) => void;
  onClose: () => void;
}

/** 'Load ...': the rows of a CSV, XLSX, XLS or JSON file (its first sheet) go into ctx.input under a port. */
export function LoadDialog({ ports, onLoaded, onClose }: LoadDialogProps) {
  const { message } = App.useApp();
  const [port, setPort] = useState(ports[0] ?? 'input');
  const [busy, setBusy] = useState(false);
  const load = async (file: File) => {
    setBusy(true);
    try {
      const read = await readTestFile(file);
      onLoaded(port, read.rows);
      void message.success(TEST_TEXTS.loaded(read.rows.length, port));
      onClose();
    } catch (error) {
      showFailure(error, message.error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      title={TEST_TEXTS.loadTitle}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          Cancel
        </Button>,
      ]}
    >
      <div className="gdb-test-load">
        <label htmlFor="gdb-test-load-port">{TEST_TEXTS.port}</label>
        <Select
          id="gdb-test-load-port"
          value={port}
          onChange={setPort}
          options={(ports.length > 0 ? ports : ['input']).map((p) => ({ value: p, label: p }))}
        />
        <Upload
          accept=".csv,.xlsx,.xls,.json"
          showUploadList={false}
          beforeUpload={(file) => {
            void load(file);
            return false;
          }}
        >
          <Button loading={busy}>{TEST_TEXTS.file}</Button>
        </Upload>
      </div>
    </Dialog>
  );
}
