import { InboxOutlined, SendOutlined } from '@ant-design/icons';
import type { PipelineView } from '@gdb/shared/pipelines/pipeline.schemas';
import { FILE_SIZE_TIP, MAX_FILE_BYTES } from '@gdb/shared/uploads/upload.schemas';
import { Button, Space, Typography, Upload } from 'antd';
import { useId, useState } from 'react';
import { FileName } from '../../ui/FileName.tsx';
import { spaceOpensFilePicker } from '../../ui/spaceOpensFilePicker.ts';
import '../../ui/uploads/uploads.css';
import { ACCEPT, uploadSources } from '../../ui/uploads/sources.ts';

export interface SourceFilesProps {
  pipeline: PipelineView;
  chosen: ReadonlyMap<string, File>;
  onChoose: (dataSubKind: string, file: File | null) => void;
  sending: boolean;
  onSend: () => void;
}

/**
 * One file zone per manual data source, labelled by its dataSubKind (antd's drop zone, as in the
 * wizard), the file chosen with a Remove button, and the Send button.
 */
export function SourceFiles({ pipeline, chosen, onChoose, sending, onSend }: SourceFilesProps) {
  const id = useId();
  const [refused, setRefused] = useState<ReadonlySet<string>>(new Set());
  const sources = uploadSources(pipeline);
  const tipId = `${id}-tip`;

  const pick = (kind: string, file: File) => {
    const tooLarge = file.size >= MAX_FILE_BYTES;
    setRefused((set) => {
      const next = new Set(set);
      if (tooLarge) next.add(kind);
      else next.delete(kind);
      return next;
    });
    onChoose(kind, tooLarge ? null : file);
  };

  if (sources.length === 0) {
    return <Typography.Text type="secondary">No data source of this pipeline takes files.</Typography.Text>;
  }
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary" id={tipId}>
        {FILE_SIZE_TIP}
      </Typography.Text>
      {sources.map((source, i) => {
        const inputId = `${id}-${i}`;
        const errorId = `${inputId}-error`;
        const isRefused = refused.has(source.dataSubKind);
        const file = chosen.get(source.dataSubKind);
        return (
          // biome-ignore lint/a11y/noStaticElementInteractions: the handler gives the drop zone inside (a role=button) a button's Space key
          <div key={source.dataSubKind} className="gdb-testing-source" onKeyDown={spaceOpensFilePicker}>
            <label htmlFor={inputId}>{source.dataSubKind}</label>
            <Upload.Dragger
              id={inputId}
              className="gdb-testing-drop"
              accept={ACCEPT[source.contentType]}
              multiple={false}
              showUploadList={false}
              disabled={sending}
              aria-invalid={isRefused || undefined}
              aria-describedby={isRefused ? `${tipId} ${errorId}` : tipId}
              beforeUpload={(f) => {
                pick(source.dataSubKind, f);
                return false;
              }}
            >
              <InboxOutlined className="gdb-testing-drop-icon" aria-hidden="true" /> Drop a {source.dataSubKind} file here or
              click to choose one
            </Upload.Dragger>
            {file && (
              <Space className="gdb-upload-row gdb-testing-chosen">
                <FileName name={file.name} />
                <Button size="small" disabled={sending} onClick={() => onChoose(source.dataSubKind, null)}>
                  Remove
                </Button>
              </Space>
            )}
            {isRefused && (
              <Typography.Text type="danger" id={errorId} role="alert">
                {FILE_SIZE_TIP}
              </Typography.Text>
            )}
          </div>
        );
      })}
      <Button type="primary" icon={<SendOutlined />} disabled={chosen.size === 0} loading={sending} onClick={onSend}>
        Send
      </Button>
    </Space>
  );
}
